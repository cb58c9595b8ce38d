// "Save as episode": a judged run becomes a candidate episode in the format of eval/episodes.jsonl
// (candidate-episode.ts builds it: the ticket's words without personal data, its order as a grader's
// template, the outcome the person's decision expects). Once per annotation; stored with its audit
// event in one transaction, for a lead to promote into the team dataset or discard.
import { AppError } from "../contracts/app-error";
import { mayUse, type Role } from "../contracts/roles";
import type { TAnnotationReason, TAnnotationVerdict } from "../contracts/reason-codes";
import { recordAuditEvent } from "../audit/record-audit-event";
import { db as defaultDb, Prisma, type Db } from "../db";
import { buildCandidateEpisode, orderPreset, type TCandidateInput } from "./candidate-episode";

const DAY_MS = 86_400_000;

async function readRun(client: Db, runId: string) {
  return client.agentRun.findUnique({
    where: { id: runId },
    select: {
      id: true,
      planner: true,
      status: true,
      reason: true,
      citations: true,
      traceEvents: { orderBy: { step: "asc" }, select: { action: true } },
      proposals: { orderBy: { createdAt: "desc" }, take: 1, select: { decision: true, requiredRole: true } },
      approvals: {
        orderBy: { createdAt: "desc" },
        select: { executionOutcome: true, decisions: { where: { automatic: false }, orderBy: { createdAt: "desc" }, select: { decision: true, deciderRole: true, note: true } } },
      },
      ticket: { select: { number: true, subject: true, body: true, orderRef: true, customerEmail: true } },
      annotation: { select: { id: true, verdict: true, reason: true, candidate: { select: { id: true } } } },
    },
  });
}

type TRun = NonNullable<Awaited<ReturnType<typeof readRun>>>;

/** The person's decision on the run's newest decided request, and whether its refund was made. */
function personsDecision(run: TRun): TCandidateInput["decision"] {
  const request = run.approvals.find((a) => a.decisions.length > 0);
  const decision = request?.decisions[0];
  if (!request || !decision) return null;
  return { kind: decision.decision, role: decision.deciderRole, note: decision.note, refundExecuted: request.executionOutcome === "refund_created" };
}

async function readOrder(client: Db, orderRef: string | null) {
  if (!orderRef) return { preset: orderPreset({ exists: false, id: null, amountCents: 0, flagged: false, deliveredDaysAgo: null }), customer: null };
  const order = await client.order.findFirst({ where: { id: { equals: orderRef, mode: "insensitive" } }, select: { amountCents: true, deliveredAt: true, customer: { select: { name: true, email: true, flagged: true } } } });
  const deliveredDaysAgo = order?.deliveredAt ? Math.floor((Date.now() - order.deliveredAt.getTime()) / DAY_MS) : null;
  const preset = orderPreset({ exists: !!order, id: orderRef, amountCents: order?.amountCents ?? 0, flagged: order?.customer.flagged ?? false, deliveredDaysAgo });
  return { preset, customer: order?.customer ?? null };
}

export async function saveEpisodeCandidate(input: { runId: string; actor: { id: string; role: Role }; client?: Db }): Promise<{ candidateId: string; episodeId: string }> {
  const { actor } = input;
  if (!mayUse(actor.role, "annotate")) throw new AppError("forbidden", "Your role may not save episodes.");
  const client = input.client ?? defaultDb();
  const run = await readRun(client, input.runId);
  if (!run) throw new AppError("not_found", "No such run.");
  const annotation = run.annotation;
  if (!annotation?.verdict) throw new AppError("annotation_state", "Judge the run first: an episode is saved from a person's judgement.");
  if (annotation.candidate) throw new AppError("annotation_state", "This run was saved as an episode already.");
  const { preset, customer } = await readOrder(client, run.ticket.orderRef);
  const episodeId = `team-t${run.ticket.number}-${run.id.slice(0, 8)}`;
  const episode = buildCandidateEpisode({
    id: episodeId,
    ticketNumber: run.ticket.number,
    ticket: run.ticket,
    customer: { names: customer ? [customer.name] : [], emails: [run.ticket.customerEmail, ...(customer ? [customer.email] : [])] },
    preset,
    planner: run.planner,
    run: { status: run.status, reason: run.reason ?? "", path: run.traceEvents.map((e) => e.action), citations: run.citations, proposal: run.proposals[0] ?? null },
    decision: personsDecision(run),
    annotation: { verdict: annotation.verdict as TAnnotationVerdict, reason: annotation.reason as TAnnotationReason | null },
  });
  return client.$transaction(async (tx) => {
    const row = await tx.episodeCandidate.create({ data: { annotationId: annotation.id, episodeId, episode: JSON.parse(JSON.stringify(episode)) as Prisma.InputJsonObject, savedById: actor.id }, select: { id: true } });
    await recordAuditEvent(tx, { actorType: "user", actorId: actor.id, action: "episode.saved", subjectType: "episode_candidate", subjectId: row.id, ticketId: null, inputs: { runId: run.id, episodeId } });
    return { candidateId: row.id, episodeId };
  });
}
