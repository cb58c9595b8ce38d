// The refund executor: the one path by which money moves. It is never reachable from the agent (no
// module under lib/agent imports this folder). It verifies a recorded approval, derives the
// idempotency key from the verified operation – callers cannot choose it – and writes the audit event
// and the ledger row in one transaction, under a row lock on the order so that the refunds of an
// order never add up to more than its amount, however many requests arrive at once.
import type { Role } from "../../generated/prisma/enums";
import { db as defaultDb, isUniqueViolation, type Db, type DbTx } from "../db";
import { sha256Hex } from "../audit/canonical";
import { recordAuditEvent, type ActorType } from "../audit/record-audit-event";
import { approvalDigest, type TApprovalOperation } from "../approvals/approval-digest";
import { roleSatisfies } from "../approvals/roles";

export const EXECUTION_OUTCOMES = [
  "refund_created",
  "duplicate_ignored",
  "blocked:not_approved",
  "blocked:approval_mismatch",
  "blocked:approval_expired",
  "blocked:exceeds_refundable",
] as const;
export type TExecutionOutcome = (typeof EXECUTION_OUTCOMES)[number];

export interface TExecutionResult {
  outcome: TExecutionOutcome;
  /** Present once a key could be derived, i.e. the approval verified. */
  idempotencyKey: string | null;
  ledgerEntryId: string | null;
  amountCents: number | null;
  orderId: string | null;
  simulated: boolean;
  detail: string;
}

export interface TExecuteInput {
  approvalId: string;
  actor: { type: ActorType; id: string };
  mode?: "live" | "simulate";
  client?: Db;
  now?: Date;
}

/** The key of an approved operation: the approval and exactly what it approved. */
export function refundIdempotencyKey(approvalId: string, digest: string): string {
  return `refund:${sha256Hex(`${approvalId}\n${digest}`)}`;
}

export async function executeApprovedRefund(input: TExecuteInput): Promise<TExecutionResult> {
  const client = input.client ?? defaultDb();
  const mode = input.mode ?? "live";
  try {
    return await client.$transaction(async (tx) => executeInTransaction(tx, { ...input, mode }), { timeout: 20_000, maxWait: 20_000 });
  } catch (error) {
    // Two executions that both passed the checks: the unique key let one through. Answer as a retry.
    if (isUniqueViolation(error)) {
      const result: TExecutionResult = { outcome: "duplicate_ignored", idempotencyKey: null, ledgerEntryId: null, amountCents: null, orderId: null, simulated: mode === "simulate", detail: "a concurrent execution wrote this refund" };
      await client.$transaction((tx) => audit(tx, input, result, null));
      return result;
    }
    throw error;
  }
}

async function audit(tx: DbTx, input: TExecuteInput, result: TExecutionResult, ticketId: string | null) {
  await recordAuditEvent(tx, {
    actorType: input.actor.type,
    actorId: input.actor.id,
    action: result.outcome === "refund_created" ? "refund.executed" : `refund.${result.outcome.replace("blocked:", "blocked_")}`,
    subjectType: "approval",
    subjectId: input.approvalId,
    ticketId,
    inputs: { mode: result.simulated ? "simulate" : "live", orderId: result.orderId, amountCents: result.amountCents, detail: result.detail },
    idempotencyKey: result.idempotencyKey,
  });
}

/**
 * The executor inside a caller's transaction, for callers that record more in the same commit (the
 * refund job records the outcome and releases the reply with it). A concurrent execution of the same
 * approval surfaces as a unique violation that rolls the whole transaction back.
 */
export async function executeInTransaction(tx: DbTx, input: Omit<TExecuteInput, "client">): Promise<TExecutionResult> {
  const mode = input.mode ?? "live";
  const now = input.now ?? new Date();
  const simulated = mode === "simulate";
  const request = await tx.approvalRequest.findUnique({ where: { id: input.approvalId }, include: { decision: true, proposal: true } });
  const answer = async (outcome: TExecutionOutcome, detail: string, extra: Partial<TExecutionResult> = {}): Promise<TExecutionResult> => {
    const result: TExecutionResult = { outcome, idempotencyKey: null, ledgerEntryId: null, amountCents: null, orderId: null, simulated, detail, ...extra };
    if (!simulated) await audit(tx, input, result, request?.ticketId ?? null);
    return result;
  };

  // Exists, approved, by a role the operation required.
  if (!request || request.kind !== "refund" || !request.proposal) return answer("blocked:not_approved", "no approval request for a refund");
  const decision = request.decision;
  if (!decision || decision.decision !== "approve" || request.status !== "approved") return answer("blocked:not_approved", "the request has not been approved");
  if (decision.automatic) {
    // A system approval stands only for what the policy itself auto-approved within the dial.
    if (request.proposal.decision !== "auto_approved" || request.proposal.simulated) return answer("blocked:not_approved", "a system approval covers only a live refund the policy auto-approved");
  } else if (!roleSatisfies(decision.deciderRole as Role, request.requiredRole as Role)) {
    return answer("blocked:not_approved", `approved by a ${decision.deciderRole}, needs ${request.requiredRole}`);
  }

  // The operation now is the operation that was approved.
  const operation = request.operation as unknown as TApprovalOperation;
  const p = request.proposal;
  const matches =
    approvalDigest(operation) === request.digest &&
    decision.digest === request.digest &&
    operation.proposal !== null &&
    operation.proposal.orderId === p.orderId &&
    operation.proposal.amountCents === p.amountCents &&
    operation.proposal.currency === p.currency &&
    operation.proposal.reason === p.reason;
  if (!matches) return answer("blocked:approval_mismatch", "the proposal no longer matches what was approved");

  const idempotencyKey = refundIdempotencyKey(request.id, request.digest);
  const facts = { idempotencyKey, amountCents: p.amountCents, orderId: p.orderId };

  // Lock the order first: every execution for this order queues here, so the checks below see every
  // refund committed before them.
  await tx.$queryRaw`SELECT id FROM "Order" WHERE id = ${p.orderId} FOR UPDATE`;
  const existing = await tx.ledgerEntry.findUnique({ where: { idempotencyKey } });
  if (existing) return answer("duplicate_ignored", "this approved operation was already executed", { ...facts, ledgerEntryId: existing.id });

  if (decision.createdAt > request.expiresAt || now > request.expiresAt) return answer("blocked:approval_expired", `the approval expired at ${request.expiresAt.toISOString()}`, facts);

  const order = await tx.order.findUniqueOrThrow({ where: { id: p.orderId } });
  const refunded = (await tx.ledgerEntry.aggregate({ where: { orderId: order.id }, _sum: { amountCents: true } }))._sum.amountCents ?? 0;
  if (refunded + p.amountCents > order.amountCents) {
    return answer("blocked:exceeds_refundable", `${refunded} of ${order.amountCents} cents already refunded`, facts);
  }
  if (p.currency !== order.currency) return answer("blocked:approval_mismatch", "currency differs from the order's", facts);

  if (simulated) return answer("refund_created", "simulated: no ledger row written", facts);
  const created: TExecutionResult = { outcome: "refund_created", ...facts, ledgerEntryId: null, simulated, detail: "refund written to the ledger" };
  await audit(tx, input, created, request.ticketId);
  const entry = await tx.ledgerEntry.create({
    data: { idempotencyKey, orderId: order.id, approvalRequestId: request.id, amountCents: p.amountCents, currency: p.currency, kind: "refund", actorType: input.actor.type, actorId: input.actor.id },
  });
  return { ...created, ledgerEntryId: entry.id };
}
