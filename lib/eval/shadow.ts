// Shadow evidence for the autonomy dial. The agent re-runs, in simulate mode, on recent tickets
// waiting for a person's refund decision; for each candidate dial limit we record whether the policy
// would have auto-approved the proposed refund. When the person decides (decideApproval), their
// decision is written beside it: approving what the policy would have auto-approved is agreement,
// rejecting it is disagreement.
import type { Role } from "../../generated/prisma/enums";
import { db as defaultDb, type Db } from "../db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { runAgent } from "../agent/run-agent";
import { evaluateRefund } from "../policy/evaluate-refund";
import { loadPolicySettings } from "../policy/settings";
import { SettingsError, updatePolicySettings } from "../policy/update-settings";

/** The dial positions the evidence is gathered for, in cents. */
export const CANDIDATE_LIMITS_CENTS = [2_500, 5_000, 10_000, 25_000, 49_999] as const;

export interface TShadowSummary {
  ticketsConsidered: number;
  ticketsRun: number;
  decisionsRecorded: number;
}

/** Runs the shadow pass over the most recent tickets waiting for a refund decision (at most `limit`). */
export async function runShadowPass(input: { actor: { id: string; role: Role }; limit?: number; client?: Db }): Promise<TShadowSummary> {
  const client = input.client ?? defaultDb();
  const decided = await client.approvalRequest.findMany({
    where: { kind: "refund", status: "pending" },
    orderBy: { createdAt: "desc" },
    take: Math.min(input.limit ?? 50, 500),
    include: { ticket: { select: { id: true, shadows: { select: { id: true }, take: 1 } } } },
  });
  const settings = await loadPolicySettings(client);
  let ticketsRun = 0;
  let decisionsRecorded = 0;
  for (const request of decided) {
    if (request.ticket.shadows.length) continue; // one shadow pass per ticket
    const run = await runAgent({ ticketId: request.ticketId, mode: "simulate", startedBy: input.actor.id, client });
    ticketsRun++;
    if (!run.proposal) continue;
    const facts = { amountCents: run.proposal.amountCents, currency: run.proposal.currency, orderCurrency: run.proposal.currency, customerFlagged: run.proposal.reasons.includes("flagged_account"), autoApprovedTodayCents: 0, customerProposalsToday: 0 };
    const rows = CANDIDATE_LIMITS_CENTS.map((limitCents) => {
      const would = evaluateRefund(facts, { ...settings, "autonomy.autoApproveLimitCents": limitCents }).decision === "auto_approved";
      return { ticketId: request.ticketId, runId: run.runId, amountCents: run.proposal!.amountCents, limitCents, wouldAutoApprove: would };
    });
    await client.$transaction(async (tx) => {
      await recordAuditEvent(tx, { actorType: "user", actorId: input.actor.id, action: "shadow.recorded", subjectType: "ticket", subjectId: request.ticketId, ticketId: request.ticketId, inputs: { runId: run.runId, amountCents: run.proposal!.amountCents, wouldAutoApproveAt: rows.filter((r) => r.wouldAutoApprove).map((r) => r.limitCents) } });
      await tx.shadowDecision.createMany({ data: rows });
    });
    decisionsRecorded += rows.length;
  }
  return { ticketsConsidered: decided.length, ticketsRun, decisionsRecorded };
}

export interface TDialEvidence {
  limitCents: number;
  /** Shadow decisions where the policy would have auto-approved at this limit (decided by a person or not yet). */
  wouldAutoApprove: number;
  agreed: number;
  disagreed: number;
}

export async function dialEvidence(client: Db = defaultDb()): Promise<TDialEvidence[]> {
  const groups = await client.shadowDecision.groupBy({ by: ["limitCents", "agreed"], where: { wouldAutoApprove: true }, _count: true });
  return CANDIDATE_LIMITS_CENTS.map((limitCents) => {
    const at = groups.filter((g) => g.limitCents === limitCents);
    const agreed = at.find((g) => g.agreed === true)?._count ?? 0;
    const disagreed = at.find((g) => g.agreed === false)?._count ?? 0;
    return { limitCents, wouldAutoApprove: at.reduce((n, g) => n + g._count, 0), agreed, disagreed };
  });
}

/**
 * Moves the autonomy dial. Lowering it is always allowed; raising it needs, at the new limit, at
 * least the configured number of agreeing shadow decisions and no disagreement. Audited either way
 * it lands (through updatePolicySettings); a refusal changes nothing.
 */
export async function setAutonomyLimit(input: { limitCents: number; actor: { id: string; role: Role }; client?: Db }) {
  const client = input.client ?? defaultDb();
  if (input.actor.role !== "LEAD" && input.actor.role !== "ADMIN") throw new SettingsError("forbidden", "Only leads and admins move the autonomy dial.");
  const settings = await loadPolicySettings(client);
  const current = settings["autonomy.autoApproveLimitCents"];
  if (input.limitCents > current) {
    const required = settings["autonomy.requiredAgreements"];
    const evidence = (await dialEvidence(client)).find((e) => e.limitCents === input.limitCents);
    if (!evidence) throw new SettingsError("invalid", `The dial moves to one of the candidate limits: ${CANDIDATE_LIMITS_CENTS.map((c) => (c / 100).toFixed(2)).join(", ")} USD.`);
    if (evidence.disagreed > 0 || evidence.agreed < required) {
      throw new SettingsError(
        "insufficient_evidence",
        `Not enough evidence to raise the dial to ${(input.limitCents / 100).toFixed(2)} USD: ${evidence.agreed} of ${required} agreeing shadow decisions, ${evidence.disagreed} disagreeing (none allowed).`,
      );
    }
  }
  return updatePolicySettings({ changes: { "autonomy.autoApproveLimitCents": input.limitCents }, actor: input.actor });
}

/** Writes a person's decision beside the shadow decisions recorded for their ticket. */
export async function recordHumanDecisionOnShadows(tx: Pick<Db, "shadowDecision">, ticketId: string, decision: "approve" | "reject") {
  await tx.shadowDecision.updateMany({ where: { ticketId, humanDecision: null, wouldAutoApprove: true }, data: { humanDecision: decision, agreed: decision === "approve" } });
  await tx.shadowDecision.updateMany({ where: { ticketId, humanDecision: null, wouldAutoApprove: false }, data: { humanDecision: decision } });
}
