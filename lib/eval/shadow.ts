// Shadow evidence for the autonomy dial. The agent re-runs, in simulate mode and through the job
// queue, on recent tickets waiting for a person's refund decision; for each candidate dial limit we record whether the policy
// would have auto-approved the proposed refund. When the person decides (decideApproval), their
// decision is written beside it: approving what the policy would have auto-approved is agreement,
// rejecting it is disagreement.
import type { Role } from "../../generated/prisma/enums";
import { db as defaultDb, Prisma, type Db } from "../db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { startBatch } from "../agent/batches";
import type { TRunResult } from "../agent/run-agent";
import { evaluateRefund } from "../policy/evaluate-refund";
import { loadPolicySettings } from "../policy/settings";
import { SettingsError, updatePolicySettings } from "../policy/update-settings";

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
  if (input.actor.role !== "LEAD" && input.actor.role !== "ADMIN") throw new SettingsError("forbidden", "Only leads and admins run shadow passes.");
  const waiting = await client.approvalRequest.findMany({
    where: { kind: "refund", status: "pending", ticket: { shadows: { none: {} } } },
    orderBy: { createdAt: "desc" },
    take: Math.min(input.limit ?? 50, 500),
    select: { ticketId: true },
  });
  if (waiting.length === 0) return { ticketsConsidered: 0, batchId: null };
  const { batchId } = await startBatch({ ticketIds: waiting.map((w) => w.ticketId), kind: "shadow", mode: "simulate", actor: input.actor, client });
  return { ticketsConsidered: waiting.length, batchId };
}

/** What the policy would have done with a simulate run's proposal at each candidate limit. */
export async function recordShadowDecisions(run: TRunResult, actorId: string | null, client: Db = defaultDb()): Promise<number> {
  if (!run.proposal || run.mode !== "simulate") return 0;
  const proposal = run.proposal;
  const settings = await loadPolicySettings(client);
  const facts = { amountCents: proposal.amountCents, currency: proposal.currency, orderCurrency: proposal.currency, customerFlagged: proposal.reasons.includes("flagged_account"), autoApprovedTodayCents: 0, customerProposalsToday: 0 };
  const rows = CANDIDATE_LIMITS_CENTS.map((limitCents) => {
    const would = evaluateRefund(facts, { ...settings, "autonomy.autoApproveLimitCents": limitCents }).decision === "auto_approved";
    return { ticketId: run.ticketId, runId: run.runId, amountCents: proposal.amountCents, limitCents, wouldAutoApprove: would };
  });
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

/** The UPDATE that writes a person's decision beside their ticket's shadow decisions, for a statement of the caller's. */
export function humanDecisionOnShadowsSql(ticketId: string, decision: "approve" | "reject"): Prisma.Sql {
  // Agreement is recorded where the policy would have auto-approved: the person approving agrees.
  return Prisma.sql`
    UPDATE "ShadowDecision" SET "humanDecision" = ${decision}::"DecisionKind",
           "agreed" = CASE WHEN "wouldAutoApprove" THEN ${decision === "approve"} ELSE "agreed" END
    WHERE "ticketId" = ${ticketId}::uuid AND "humanDecision" IS NULL`;
}

/** Writes a person's decision beside the shadow decisions recorded for their ticket. */
export async function recordHumanDecisionOnShadows(tx: Pick<Db, "$executeRaw">, ticketId: string, decision: "approve" | "reject") {
  await tx.$executeRaw(humanDecisionOnShadowsSql(ticketId, decision));
}
