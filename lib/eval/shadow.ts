// Shadow evidence for the autonomy dial. The agent re-runs, in simulate mode and through the job
// queue, on recent tickets waiting for a person's refund decision; for each candidate dial limit we record whether the policy
// would have auto-approved the proposed refund. The person's decision is read where it is kept
// (ApprovalDecision), joined when the evidence is read: approving what the policy would have
// auto-approved is agreement, rejecting it is disagreement. Nothing is written back to the shadow
// rows (their humanDecision and agreed columns are no longer filled).
import { mayUse, type Role } from "../contracts/roles";
import { AppError } from "../contracts/app-error";
import { db as defaultDb, type Db } from "../db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { startBatch } from "../agent/batches";
import type { TRunResult } from "../agent/run-agent";
import { evaluateRefund } from "../policy/evaluate-refund";
import { loadPolicySettings, type TPolicySettings } from "../policy/settings";
import { updatePolicySettings } from "../policy/update-settings";

/** The dial positions the evidence is gathered for, in cents. */
export const CANDIDATE_LIMITS_CENTS = [2_500, 5_000, 10_000, 25_000, 49_999] as const;

export interface TShadowPass {
  /** Tickets waiting for a refund decision that have no shadow evidence yet. */
  ticketsConsidered: number;
  /** The batch of simulate runs the job queue works through; null when there was nothing to run. */
  batchId: string | null;
}

/**
 * Starts a shadow pass over the most recent tickets waiting for a refund decision (at most `limit`):
 * one simulate run per ticket, done by the job queue (lib/agent/batches.ts), each recording its
 * evidence with recordShadowDecisions when it finishes.
 */
export async function startShadowPass(input: { actor: { id: string; role: Role }; limit?: number; client?: Db }): Promise<TShadowPass> {
  const client = input.client ?? defaultDb();
  if (!mayUse(input.actor.role, "autonomy")) throw new AppError("forbidden", "Only leads and admins run shadow passes.");
  const waiting = await client.approvalRequest.findMany({
    where: { kind: "refund", status: "pending", ticket: { shadows: { none: {} } } },
    orderBy: { createdAt: "desc" },
    take: Math.min(input.limit ?? 50, 500),
    select: { ticketId: true },
  });
  if (waiting.length === 0) return { ticketsConsidered: 0, batchId: null };
  const { batchId } = await startBatch({ ticketIds: waiting.map((w) => w.ticketId), work: { kind: "shadow", mode: "simulate" }, actor: input.actor, client });
  return { ticketsConsidered: waiting.length, batchId };
}

/** Whether the policy would have auto-approved a proposal at each candidate limit (the day's totals left out). */
export function shadowVerdicts(
  proposal: { amountCents: number; currency: string; reasons: readonly string[] },
  settings: TPolicySettings,
): { limitCents: number; wouldAutoApprove: boolean }[] {
  const facts = { amountCents: proposal.amountCents, currency: proposal.currency, orderCurrency: proposal.currency, customerFlagged: proposal.reasons.includes("flagged_account"), autoApprovedTodayCents: 0, customerProposalsToday: 0 };
  return CANDIDATE_LIMITS_CENTS.map((limitCents) => ({
    limitCents,
    wouldAutoApprove: evaluateRefund(facts, { ...settings, "autonomy.autoApproveLimitCents": limitCents }).decision === "auto_approved",
  }));
}

/** What the policy would have done with a simulate run's proposal at each candidate limit. */
export async function recordShadowDecisions(run: TRunResult, actorId: string | null, client: Db = defaultDb()): Promise<number> {
  if (!run.proposal || run.mode !== "simulate") return 0;
  const proposal = run.proposal;
  const settings = await loadPolicySettings(client);
  const rows = shadowVerdicts(proposal, settings).map((v) => ({ ticketId: run.ticketId, runId: run.runId, amountCents: proposal.amountCents, ...v }));
  await client.$transaction(async (tx) => {
    await recordAuditEvent(tx, { actorType: actorId ? "user" : "system", actorId, action: "shadow.recorded", subjectType: "ticket", subjectId: run.ticketId, ticketId: run.ticketId, inputs: { runId: run.runId, amountCents: proposal.amountCents, wouldAutoApproveAt: rows.filter((r) => r.wouldAutoApprove).map((r) => r.limitCents) } });
    await tx.shadowDecision.createMany({ data: rows });
  });
  return rows.length;
}

export interface TDialEvidence {
  limitCents: number;
  /** Shadow decisions where the policy would have auto-approved at this limit (decided by a person or not yet). */
  wouldAutoApprove: number;
  agreed: number;
  disagreed: number;
}

/**
 * The evidence at each candidate limit. A shadow decision's person is the first decision a person
 * (not the dial's own system approval) took on a request the agent made for that ticket, at or after
 * the shadow was recorded: the decision on the request that was waiting when the shadow pass ran,
 * or on the one that replaced it. A ticket resolved by hand has no such decision.
 */
export async function dialEvidence(client: Db = defaultDb()): Promise<TDialEvidence[]> {
  const groups = await client.$queryRaw<{ limitCents: number; wouldAutoApprove: number; agreed: number; disagreed: number }[]>`
    SELECT s."limitCents", count(*)::int AS "wouldAutoApprove",
           (count(*) FILTER (WHERE person."decision" = 'approve'))::int AS "agreed",
           (count(*) FILTER (WHERE person."decision" = 'reject'))::int AS "disagreed"
    FROM "ShadowDecision" s
    LEFT JOIN LATERAL (
      SELECT d."decision"
      FROM "ApprovalRequest" r JOIN "ApprovalDecision" d ON d."approvalRequestId" = r."id"
      WHERE r."ticketId" = s."ticketId" AND r."runId" IS NOT NULL AND NOT d."automatic" AND d."createdAt" >= s."createdAt"
      ORDER BY d."createdAt", d."id"
      LIMIT 1
    ) person ON true
    WHERE s."wouldAutoApprove"
    GROUP BY s."limitCents"`;
  return CANDIDATE_LIMITS_CENTS.map((limitCents) => {
    const at = groups.find((g) => g.limitCents === limitCents);
    return { limitCents, wouldAutoApprove: at?.wouldAutoApprove ?? 0, agreed: at?.agreed ?? 0, disagreed: at?.disagreed ?? 0 };
  });
}

/**
 * Moves the autonomy dial. Lowering it is always allowed; raising it needs, at the new limit, at
 * least the configured number of agreeing shadow decisions and no disagreement. Audited either way
 * it lands (through updatePolicySettings); a refusal changes nothing.
 */
export async function setAutonomyLimit(input: { limitCents: number; actor: { id: string; role: Role }; client?: Db }) {
  const client = input.client ?? defaultDb();
  if (!mayUse(input.actor.role, "autonomy")) throw new AppError("forbidden", "Only leads and admins move the autonomy dial.");
  const settings = await loadPolicySettings(client);
  const current = settings["autonomy.autoApproveLimitCents"];
  if (input.limitCents > current) {
    const required = settings["autonomy.requiredAgreements"];
    const evidence = (await dialEvidence(client)).find((e) => e.limitCents === input.limitCents);
    if (!evidence) throw new AppError("invalid", `The dial moves to one of the candidate limits: ${CANDIDATE_LIMITS_CENTS.map((c) => (c / 100).toFixed(2)).join(", ")} USD.`);
    if (evidence.disagreed > 0 || evidence.agreed < required) {
      throw new AppError(
        "insufficient_evidence",
        `Not enough evidence to raise the dial to ${(input.limitCents / 100).toFixed(2)} USD: ${evidence.agreed} of ${required} agreeing shadow decisions, ${evidence.disagreed} disagreeing (none allowed).`,
      );
    }
  }
  return updatePolicySettings({ changes: { "autonomy.autoApproveLimitCents": input.limitCents }, actor: input.actor });
}
