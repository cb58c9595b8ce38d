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
type TExecutionRow = {
  id: string;
  kind: string;
  status: string;
  ticketId: string;
  digest: string;
  operation: unknown;
  requiredRole: Role;
  expiresAt: Date;
  decision: "approve" | "reject" | null;
  automatic: boolean | null;
  deciderRole: Role | null;
  decisionDigest: string | null;
  decidedAt: Date | null;
  orderId: string | null;
  amountCents: number | null;
  currency: string | null;
  reason: string | null;
  proposalDecision: string | null;
  simulated: boolean | null;
  orderCents: number | null;
  orderCurrency: string | null;
};

/**
 * The executor inside a caller's transaction, for callers that record more in the same commit (the
 * refund job records the outcome and releases the reply with it). A concurrent execution of the same
 * approval surfaces as a unique violation that rolls the whole transaction back.
 *
 * Four statements: the approval with its decision, proposal and order, locking the order; then,
 * once the lock is held, the refunds so far (a statement of its own, so that it sees every refund
 * committed while it waited); the audit event; the ledger row.
 */
export async function executeInTransaction(tx: DbTx, input: Omit<TExecuteInput, "client">): Promise<TExecutionResult> {
  const mode = input.mode ?? "live";
  const now = input.now ?? new Date();
  const simulated = mode === "simulate";
  // Every execution for this order queues on the order's row lock, taken here.
  const [request] = await tx.$queryRaw<TExecutionRow[]>`
    SELECT r."id", r."kind"::text, r."status"::text, r."ticketId", r."digest", r."operation", r."requiredRole"::text AS "requiredRole", r."expiresAt",
           d."decision"::text AS "decision", d."automatic", d."deciderRole"::text AS "deciderRole", d."digest" AS "decisionDigest", d."createdAt" AS "decidedAt",
           p."orderId", p."amountCents", p."currency", p."reason", p."decision"::text AS "proposalDecision", p."simulated",
           o."amountCents" AS "orderCents", o."currency" AS "orderCurrency",
           (SELECT true FROM "Order" locked WHERE locked."id" = p."orderId" FOR UPDATE) AS "locked"
    FROM "ApprovalRequest" r
    LEFT JOIN "ApprovalDecision" d ON d."approvalRequestId" = r."id"
    LEFT JOIN "RefundProposal" p ON p."id" = r."proposalId"
    LEFT JOIN "Order" o ON o."id" = p."orderId"
    WHERE r."id" = ${input.approvalId}::uuid`;
  const answer = async (outcome: TExecutionOutcome, detail: string, extra: Partial<TExecutionResult> = {}): Promise<TExecutionResult> => {
    const result: TExecutionResult = { outcome, idempotencyKey: null, ledgerEntryId: null, amountCents: null, orderId: null, simulated, detail, ...extra };
    if (!simulated) await audit(tx, input, result, request?.ticketId ?? null);
    return result;
  };

  // Exists, approved, by a role the operation required.
  if (!request || request.kind !== "refund" || request.orderId === null) return answer("blocked:not_approved", "no approval request for a refund");
  if (request.decision !== "approve" || request.status !== "approved") return answer("blocked:not_approved", "the request has not been approved");
  if (request.automatic) {
    // A system approval stands only for what the policy itself auto-approved within the dial.
    if (request.proposalDecision !== "auto_approved" || request.simulated) return answer("blocked:not_approved", "a system approval covers only a live refund the policy auto-approved");
  } else if (!roleSatisfies(request.deciderRole!, request.requiredRole)) {
    return answer("blocked:not_approved", `approved by a ${request.deciderRole}, needs ${request.requiredRole}`);
  }

  // The operation now is the operation that was approved.
  const operation = request.operation as TApprovalOperation;
  const matches =
    approvalDigest(operation) === request.digest &&
    request.decisionDigest === request.digest &&
    operation.proposal !== null &&
    operation.proposal.orderId === request.orderId &&
    operation.proposal.amountCents === request.amountCents &&
    operation.proposal.currency === request.currency &&
    operation.proposal.reason === request.reason;
  if (!matches) return answer("blocked:approval_mismatch", "the proposal no longer matches what was approved");

  const idempotencyKey = refundIdempotencyKey(request.id, request.digest);
  const amountCents = request.amountCents!;
  const facts = { idempotencyKey, amountCents, orderId: request.orderId };

  // Under the order's lock: a fresh statement sees every refund committed before it.
  const [ledger] = await tx.$queryRaw<{ existing: string | null; refunded: number }[]>`
    SELECT (SELECT "id"::text FROM "LedgerEntry" WHERE "idempotencyKey" = ${idempotencyKey}) AS "existing",
           (SELECT coalesce(sum("amountCents"), 0)::int FROM "LedgerEntry" WHERE "orderId" = ${request.orderId}) AS "refunded"`;
  if (ledger!.existing) return answer("duplicate_ignored", "this approved operation was already executed", { ...facts, ledgerEntryId: ledger!.existing });

  if (request.decidedAt! > request.expiresAt || now > request.expiresAt) return answer("blocked:approval_expired", `the approval expired at ${request.expiresAt.toISOString()}`, facts);

  if (ledger!.refunded + amountCents > request.orderCents!) {
    return answer("blocked:exceeds_refundable", `${ledger!.refunded} of ${request.orderCents} cents already refunded`, facts);
  }
  if (request.currency !== request.orderCurrency) return answer("blocked:approval_mismatch", "currency differs from the order's", facts);

  if (simulated) return answer("refund_created", "simulated: no ledger row written", facts);
  const created: TExecutionResult = { outcome: "refund_created", ...facts, ledgerEntryId: null, simulated, detail: "refund written to the ledger" };
  await audit(tx, input, created, request.ticketId);
  const [entry] = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO "LedgerEntry" ("id", "idempotencyKey", "orderId", "approvalRequestId", "amountCents", "currency", "kind", "actorType", "actorId")
    VALUES (gen_random_uuid(), ${idempotencyKey}, ${request.orderId}, ${request.id}::uuid, ${amountCents}, ${request.currency}, 'refund', ${input.actor.type}, ${input.actor.id})
    RETURNING "id"::text`;
  return { ...created, ledgerEntryId: entry!.id };
}
