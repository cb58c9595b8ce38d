// The demo's past six weeks: refund tickets the agent drafted, a shadow pass recorded what the autonomy
// dial would have done with each, and a reviewer decided. Most decisions agree with the policy at
// 50 USD and below (a reviewer approved what the dial would have auto-approved); a few refunds between
// 50 and 100 USD were rejected. So a lead sees the evidence on /evals, can raise the dial to 50 USD,
// and is refused at 100 USD and above – the dial's rule, on data that looks like a team's.
//
// History, written as it would have been: each ticket's live run, its refund proposal and approval
// request (the operation's digest as the agent computes it), the shadow run's verdicts, the reviewer's
// decision signed with the app's key, the executed refund's ledger row, and the audit events of each
// at their own times (one stream per ticket, so they are hashed here and inserted in bulk). No job is
// left to run: every approved refund is settled, so nothing reconciles or executes it again.
// Idempotent: written in one transaction, skipped when the first history ticket exists.
import { randomUUID } from "node:crypto";
import type { PrismaClient } from "../../generated/prisma/client";
import { signDecision } from "../../lib/audit/decision-signature";
import { approvalDigest, approvalOperation, APPROVAL_TTL_MS } from "../../lib/contracts/approval-operation";
import { agentManifest } from "../../lib/contracts/manifest";
import { toJson } from "../../lib/db";
import { intakeBundleKey } from "../../lib/env";
import { shadowVerdicts } from "../../lib/eval/shadow";
import { BUILTIN_BUNDLE_VERSION } from "../../lib/intake/builtin-bundle";
import { routeClaimId, signRoute } from "../../lib/intake/route-signature";
import { refundIdempotencyKey } from "../../lib/ledger/execute-approved-refund";
import { REFUND_WORKER_ACTOR } from "../../lib/approvals/settle-refund";
import { corpusHash } from "../../lib/policy/corpus-hash";
import { evaluateRefund } from "../../lib/policy/evaluate-refund";
import { loadPolicySettings, policyVersion } from "../../lib/policy/settings";
import { insertSeedStreams, type TSeedEvent } from "./seed-audit";

/** Refunds a reviewer approved at or below 50 USD: more than the dial's default 200 agreements. */
export const HISTORY_AGREEING = 212;
/** Refunds between 50 and 100 USD a reviewer rejected: the dial may not rise past 50 USD. */
export const HISTORY_REJECTED = 4;
const HISTORY_DAYS = 42;
const CUSTOMERS = 36;

export const historyExternalId = (i: number) => `history-${String(i + 1).padStart(4, "0")}`;

const ITEMS = [
  { item: "Phone case", category: "accessories" },
  { item: "USB-C charging cable", category: "electronics" },
  { item: "Wireless mouse", category: "electronics" },
  { item: "Travel mug", category: "home" },
  { item: "Desk lamp", category: "home" },
  { item: "Bluetooth earbuds", category: "electronics" },
  { item: "Screen protector pack", category: "accessories" },
  { item: "Yoga mat", category: "sports" },
] as const;

const FIRST = ["Avery", "Jordan", "Priya", "Mateo", "Chen", "Fatima", "Oskar", "Lena", "Kwame", "Sofia", "Tomasz", "Aiko"];
const LAST = ["Brooks", "Nguyen", "Okafor", "Silva", "Larsen", "Haddad"];

interface THistoryTicket {
  i: number;
  id: string;
  externalId: string;
  customerId: string;
  email: string;
  orderId: string;
  item: string;
  amountCents: number;
  approved: boolean;
  createdAt: Date;
}

/** Ticket i of the history: deterministic amounts and times, spread over the six weeks before yesterday. */
function historyTicket(i: number, total: number, now: number): THistoryTicket {
  const approved = i % Math.floor(total / HISTORY_REJECTED) !== 7;
  // Approved: 12.00–50.00 USD (a few at exactly 50); rejected: 55.00–99.00 USD.
  const amountCents = approved ? 1_200 + ((i * 2_741) % 3_801) : 5_500 + ((i * 1_237) % 4_401);
  const c = i % CUSTOMERS;
  const dayAgo = 2 + ((total - i) * HISTORY_DAYS) / total;
  const createdAt = new Date(now - dayAgo * 86_400_000 + ((i * 7_919) % 28_800) * 1_000);
  return {
    i,
    id: randomUUID(),
    externalId: historyExternalId(i),
    customerId: `CUS-H${String(c + 1).padStart(3, "0")}`,
    email: `${FIRST[c % FIRST.length]!.toLowerCase()}.${LAST[c % LAST.length]!.toLowerCase()}${c + 1}@example.net`,
    orderId: `ORD-H${String(i + 1).padStart(4, "0")}`,
    item: ITEMS[i % ITEMS.length]!.item,
    amountCents,
    approved,
    createdAt,
  };
}

const at = (t: THistoryTicket, minutes: number) => new Date(t.createdAt.getTime() + minutes * 60_000);
const usd = (cents: number) => (cents / 100).toFixed(2);

function draftOf(t: THistoryTicket): string {
  return (
    `Thank you for letting us know. Under our return policy [return-policy-us@2] an item that arrives damaged may be returned ` +
    `for a full refund within 30 days of delivery. We have asked for a refund of ${usd(t.amountCents)} USD on ${t.orderId}.`
  );
}

/** Seeds the history unless it is there; answers the number of tickets written. */
export async function seedDialHistory(client: PrismaClient): Promise<number> {
  if (await client.ticket.findUnique({ where: { externalId: historyExternalId(0) }, select: { id: true } })) return 0;
  const deciders = await client.user.findMany({
    where: { email: { in: ["reviewer@example.com", "specialist@example.com"] } },
    orderBy: { email: "asc" },
  });
  if (deciders.length === 0) return 0;
  const settings = await loadPolicySettings(client);
  const versions = { policy: policyVersion(settings), corpus: await corpusHash(client), manifest: agentManifest() };
  const bundleKey = intakeBundleKey();
  const total = HISTORY_AGREEING + HISTORY_REJECTED;
  const now = Date.now();
  const tickets = Array.from({ length: total }, (_, i) => historyTicket(i, total, now));

  const rows = tickets.map((t) =>
    historyRows(t, { settings, versions, bundleKey, decider: deciders[t.i % 5 === 0 ? deciders.length - 1 : 0]! }),
  );
  await client.$transaction(
    async (tx) => {
      await tx.customer.createMany({
        data: Array.from({ length: CUSTOMERS }, (_, c) => {
          const t = tickets[c]!;
          return { id: t.customerId, email: t.email, name: `${FIRST[c % FIRST.length]} ${LAST[c % LAST.length]}`, flagged: false };
        }),
        skipDuplicates: true,
      });
      await tx.order.createMany({ data: rows.map((r) => r.order) });
      await tx.ticket.createMany({ data: rows.map((r) => r.ticket) });
      await tx.agentRun.createMany({ data: rows.flatMap((r) => r.runs) });
      await tx.refundProposal.createMany({ data: rows.map((r) => r.proposal) });
      await tx.shadowDecision.createMany({ data: rows.flatMap((r) => r.shadows) });
      await tx.approvalRequest.createMany({ data: rows.map((r) => r.request) });
      await tx.approvalDecision.createMany({ data: rows.map((r) => r.decision) });
      await tx.ledgerEntry.createMany({ data: rows.flatMap((r) => (r.ledger ? [r.ledger] : [])) });
      await insertSeedStreams(tx, new Map(rows.map((r) => [`ticket:${r.ticket.id}`, r.events])));
    },
    { timeout: 120_000 },
  );
  return total;
}

interface THistoryContext {
  settings: Awaited<ReturnType<typeof loadPolicySettings>>;
  versions: { policy: string; corpus: string; manifest: ReturnType<typeof agentManifest> };
  bundleKey: string;
  decider: { id: string; role: "REVIEWER" | "SPECIALIST" | "LEAD" | "ADMIN" };
}

/** Every row and audit event of one history ticket. */
function historyRows(t: THistoryTicket, ctx: THistoryContext) {
  const { versions, decider } = ctx;
  const route = { route: "guarded_agent" as const, bundleVersion: BUILTIN_BUNDLE_VERSION };
  const routeSignature = signRoute({ ticketId: routeClaimId({ id: t.id, externalId: t.externalId }), ...route }, ctx.bundleKey);
  const liveRunId = randomUUID();
  const shadowRunId = randomUUID();
  const proposalId = randomUUID();
  const requestId = randomUUID();
  const draft = draftOf(t);
  const refund = {
    orderId: t.orderId,
    amountCents: t.amountCents,
    currency: "USD",
    reason: "Arrived damaged; within the policy's return window.",
  };
  const policy = evaluateRefund(
    {
      amountCents: t.amountCents,
      currency: "USD",
      orderCurrency: "USD",
      customerFlagged: false,
      autoApprovedTodayCents: 0,
      customerProposalsToday: 0,
    },
    { ...ctx.settings, "autonomy.autoApproveLimitCents": 0 },
  );
  const operation = approvalOperation({
    proposal: refund,
    draft,
    policyVersion: versions.policy,
    bundleVersion: route.bundleVersion,
    corpusHash: versions.corpus,
  });
  const digest = approvalDigest(operation);
  // A reviewer decides between a quarter of an hour and three hours after the request.
  const decidedAt = at(t, 15 + ((t.i * 37) % 165));
  const decision = t.approved ? ("approve" as const) : ("reject" as const);
  const signed = signDecision({
    approvalRequestId: requestId,
    digest,
    decision,
    deciderId: decider.id,
    deciderRole: decider.role,
    automatic: false,
    seat: 1,
    approvalsRequired: 1,
    decidedAt,
  });
  const idempotencyKey = refundIdempotencyKey(requestId, digest);
  const executedAt = new Date(decidedAt.getTime() + 20_000);
  const run = {
    ticketId: t.id,
    planner: "rule",
    status: "needs_human" as const,
    reason: "draft_ready_for_review",
    agentVersion: versions.manifest.agentVersion,
    bundleVersion: route.bundleVersion,
    policyVersion: versions.policy,
    corpusHash: versions.corpus,
    manifest: toJson(versions.manifest),
    budgets: toJson(versions.manifest.budgets),
    stepsUsed: 6,
    elapsedMs: 1_400 + ((t.i * 131) % 900),
    citations: ["return-policy-us@2"],
    draft,
  };
  const verdicts = shadowVerdicts({ ...refund, reasons: [] }, ctx.settings);
  const stream = (e: Omit<TSeedEvent, "ticketId">): TSeedEvent => ({ ...e, ticketId: t.id });
  const events: TSeedEvent[] = [
    stream({
      at: t.createdAt,
      actorType: "api",
      action: "ticket.created",
      subjectType: "ticket",
      subjectId: t.id,
      inputs: { source: "seed", externalId: t.externalId, ...route, risks: [] },
      policyDecision: { admission: "admitted", reason: null },
    }),
    stream({
      at: at(t, 3),
      actorType: "agent",
      actorId: liveRunId,
      action: "run.stopped",
      subjectType: "ticket",
      subjectId: t.id,
      inputs: { mode: "live", status: "needs_human", reason: "draft_ready_for_review", steps: 6, citations: run.citations },
    }),
    stream({
      at: at(t, 10),
      actorType: "system",
      action: "shadow.recorded",
      subjectType: "ticket",
      subjectId: t.id,
      inputs: {
        runId: shadowRunId,
        amountCents: t.amountCents,
        wouldAutoApproveAt: shadowVerdicts({ ...refund, reasons: [] }, ctx.settings)
          .filter((v) => v.wouldAutoApprove)
          .map((v) => v.limitCents),
      },
    }),
    stream({
      at: decidedAt,
      actorType: "user",
      actorId: decider.id,
      action: t.approved ? "approval.approved" : "approval.rejected",
      subjectType: "approval",
      subjectId: requestId,
      inputs: {
        kind: "refund",
        digest,
        role: decider.role,
        note: null,
        replyEdited: false,
        approvals: 1,
        approvalsRequired: 1,
        signature: signed.signature,
      },
    }),
  ];
  if (t.approved)
    events.push(
      stream({
        at: executedAt,
        actorType: REFUND_WORKER_ACTOR.type,
        actorId: REFUND_WORKER_ACTOR.id,
        action: "refund.executed",
        subjectType: "approval",
        subjectId: requestId,
        inputs: { mode: "live", orderId: t.orderId, amountCents: t.amountCents, detail: "refund written to the ledger" },
        idempotencyKey,
      }),
    );

  return {
    order: {
      id: t.orderId,
      customerId: t.customerId,
      item: t.item,
      category: ITEMS[t.i % ITEMS.length]!.category,
      amountCents: t.amountCents,
      currency: "USD",
      region: "US",
      placedAt: at(t, -9 * 24 * 60),
      deliveredAt: at(t, -4 * 24 * 60),
    },
    ticket: {
      id: t.id,
      externalId: t.externalId,
      source: "seed" as const,
      subject: `${t.item} arrived damaged`,
      body: `The ${t.item.toLowerCase()} from order ${t.orderId} arrived damaged. Can I get a refund?`,
      customerEmail: t.email,
      orderRef: t.orderId,
      ...route,
      routeSignature,
      admission: "admitted" as const,
      status: t.approved ? ("resolved" as const) : ("needs_human" as const),
      reason: t.approved ? null : "approval_rejected",
      createdAt: t.createdAt,
      updatedAt: t.approved ? executedAt : decidedAt,
    },
    runs: [
      { ...run, id: liveRunId, mode: "live" as const, startedAt: at(t, 2), finishedAt: at(t, 3) },
      { ...run, id: shadowRunId, mode: "simulate" as const, startedAt: at(t, 9), finishedAt: at(t, 10) },
    ],
    proposal: {
      id: proposalId,
      runId: liveRunId,
      ticketId: t.id,
      ...refund,
      decision: policy.decision,
      decisionReasons: policy.reasons,
      policyVersion: versions.policy,
      requiredRole: policy.requiredRole,
      createdAt: at(t, 3),
    },
    shadows: verdicts.map((v) => ({
      ticketId: t.id,
      runId: shadowRunId,
      amountCents: t.amountCents,
      ...v,
      createdAt: at(t, 10),
    })),
    request: {
      id: requestId,
      ticketId: t.id,
      runId: liveRunId,
      proposalId,
      kind: "refund" as const,
      digest,
      operation: toJson(operation),
      draft,
      policyVersion: versions.policy,
      bundleVersion: route.bundleVersion,
      agentVersion: operation.agentVersion,
      corpusHash: versions.corpus,
      requiredRole: policy.requiredRole ?? "REVIEWER",
      status: t.approved ? ("approved" as const) : ("rejected" as const),
      expiresAt: new Date(at(t, 3).getTime() + APPROVAL_TTL_MS),
      createdAt: at(t, 3),
      executionOutcome: t.approved ? "refund_created" : null,
      executedAt: t.approved ? executedAt : null,
    },
    decision: {
      approvalRequestId: requestId,
      decision,
      deciderId: decider.id,
      deciderRole: decider.role,
      digest,
      originalReply: draft,
      createdAt: decidedAt,
      ...signed,
    },
    ledger: t.approved
      ? {
          idempotencyKey,
          orderId: t.orderId,
          approvalRequestId: requestId,
          amountCents: t.amountCents,
          currency: "USD",
          actorType: REFUND_WORKER_ACTOR.type,
          actorId: REFUND_WORKER_ACTOR.id,
          createdAt: executedAt,
          stateChangedAt: executedAt,
        }
      : null,
    events,
  };
}
