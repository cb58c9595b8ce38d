// The refund executor: the one path by which money moves. It is never reachable from the agent (no
// module under lib/agent imports this folder). It verifies a recorded approval, derives the
// idempotency key from the verified operation – callers cannot choose it – and writes the audit event
// and the ledger row in one statement, under a row lock on the order so that the refunds of an order
// never add up to more than its amount, however many requests arrive at once.
import type { Role } from "../../generated/prisma/enums";
import { db as defaultDb, driverOf, isUniqueViolation, type Db } from "../db";
import { preparedSql, timestampFromText, type TSqlTx } from "../db/driver";
import { REFUND_AUDIT_ACTIONS } from "../contracts/audit-actions";
import { sha256Hex } from "../contracts/canonical";
import { auditAppendArgument, recordAuditEvent, type ActorType, type TAuditInput } from "../audit/record-audit-event";
import { approvalDigest, type TApprovalOperation } from "../contracts/approval-operation";
import { roleRefusal, seatRefusal } from "../policy/approver-rules";
import { fitsRefundable } from "../orders/refund-facts";
import type { TExecutionOutcome, TPaymentProvider } from "../contracts/reason-codes";
import { writeRefundIfRoom } from "./store/ledger-store";
import { isTrue, type DB, type TOuterJoined, type TRowText, type TText } from "../db/typed-sql";
import { decisionsSignatureProblem } from "../audit/decision-signature";

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
  /** Where the refund is executed (lib/payments/): the ledger row is written `succeeded` for the ledger alone, `requested` before a provider call. */
  provider?: TPaymentProvider;
  /**
   * The order read again from its source (ORDER_SOURCE=shopify: the shop), called with the order's
   * lock held in the caller's transaction once the approval verified, before the write sums what the
   * order still allows: the refunds its source reports are then counted. False: the source no longer
   * has the order – nothing is refunded. Throws when the source could not be read (retried).
   */
  refreshOrder?: (orderId: string) => Promise<boolean>;
  client?: Db;
}

/** The key of an approved operation: the approval and exactly what it approved. */
export function refundIdempotencyKey(approvalId: string, digest: string): string {
  return `refund:${sha256Hex(`${approvalId}\n${digest}`)}`;
}

export async function executeApprovedRefund(input: TExecuteInput): Promise<TExecutionResult> {
  // No transaction of its own: the read needs none (see executeRefundOn) and the write is one
  // statement, atomic by itself.
  const driver = driverOf(input.client ?? defaultDb());
  try {
    return await executeRefundOn(driver, input);
  } catch (error) {
    // Two executions that both passed the checks: the unique key let one through. Answer as a retry.
    // Only live executions write, so only a live one meets the key.
    if (isUniqueViolation(error)) {
      const result: TExecutionResult = {
        outcome: "duplicate_ignored",
        idempotencyKey: null,
        ledgerEntryId: null,
        amountCents: null,
        orderId: null,
        simulated: false,
        detail: "a concurrent execution wrote this refund",
      };
      await recordAuditEvent(driver, auditOf(input, result, null));
      return result;
    }
    throw error;
  }
}

function auditOf(input: Pick<TExecuteInput, "approvalId" | "actor">, result: TExecutionResult, ticketId: string | null): TAuditInput {
  return {
    actorType: input.actor.type,
    actorId: input.actor.id,
    action: REFUND_AUDIT_ACTIONS[result.outcome],
    subjectType: "approval",
    subjectId: input.approvalId,
    ticketId,
    // Only a live execution is audited: a simulation writes nothing, its audit event included.
    inputs: { mode: "live", orderId: result.orderId, amountCents: result.amountCents, detail: result.detail },
    idempotencyKey: result.idempotencyKey,
  };
}

/** READ_APPROVAL's row: the columns as the schema types them, as their text (the proposal's and the order's null without one). */
type TExecutionRow = TRowText<
  "ApprovalRequest",
  "id" | "kind" | "status" | "ticketId" | "digest" | "requiredRole" | "expiresAt" | "approvalsRequired"
> &
  TOuterJoined<TRowText<"RefundProposal", "orderId" | "amountCents" | "currency" | "reason" | "simulated">> & {
    /** The operation as JSON text. */
    operation: string;
    /** Every decision on the request, in seat order: [{ decision, automatic, deciderId, deciderRole, digest, decidedAt, seat, signature, keyId }]. */
    decisions: string;
    starterId: string | null;
    /** Of the request and those it replaced (a lowered refund's originals): who lowered them, and the most approvals any asked, as JSON. */
    lineage: string;
    proposalDecision: TText<DB["RefundProposal"]["decision"]> | null;
    orderCents: string | null;
    orderCurrency: string | null;
  };

// The approval with its decisions, proposal and order, every column as text. Read without a lock:
// what it reads is settled once the request is approved (decisions are append-only, the proposal and
// order do not change under an approval); the order's lock is taken by the write, which re-reads
// everything the lock guards.
const READ_APPROVAL = preparedSql(`
  SELECT r."id"::text, r."kind"::text, r."status"::text, r."ticketId"::text, r."digest", r."operation"::text, r."requiredRole"::text, r."expiresAt"::text,
         r."approvalsRequired"::text,
         (SELECT coalesce(json_agg(json_build_object('decision', d."decision", 'automatic', d."automatic", 'deciderId', d."deciderId", 'deciderRole', d."deciderRole", 'digest', d."digest", 'decidedAt', d."createdAt"::text, 'seat', d."seat", 'signature', d."signature", 'keyId', d."keyId") ORDER BY d."seat"), '[]'::json)
            FROM "ApprovalDecision" d WHERE d."approvalRequestId" = r."id")::text AS "decisions",
         (SELECT run."startedById"::text FROM "AgentRun" run WHERE run."id" = r."runId") AS "starterId",
         (SELECT json_build_object('loweredByIds', coalesce(json_agg(e."editedById") FILTER (WHERE e."editedById" IS NOT NULL), '[]'::json), 'approvalsRequired', max(e."approvalsRequired"))
            FROM "ApprovalRequest" e WHERE e."id" = ANY (countersign_request_lineage(r."id")))::text AS "lineage",
         p."orderId", p."amountCents"::text, p."currency", p."reason", p."decision"::text AS "proposalDecision", p."simulated"::text,
         o."amountCents"::text AS "orderCents", o."currency" AS "orderCurrency"
  FROM "ApprovalRequest" r
  LEFT JOIN "RefundProposal" p ON p."id" = r."proposalId"
  LEFT JOIN "Order" o ON o."id" = p."orderId"
  WHERE r."id" = $1::uuid`);

/**
 * The executor on a statement runner: the driver itself (each statement its own transaction) or a
 * caller's transaction, for callers that record more in the same commit (the refund job records the
 * outcome and releases the reply with it); there the order stays locked until the caller's COMMIT. A
 * concurrent execution of the same approval surfaces as a unique violation.
 *
 * Two statements when the refund is written: the approval with everything the checks need; then
 * the write, which locks the order and, under the lock, reads the ledger's state and writes the audit
 * event and the ledger row only if nothing stands in the way. A refund that is refused costs one
 * statement more: its event.
 */
type TRecordedDecision = {
  decision: string;
  automatic: boolean;
  deciderId: string | null;
  deciderRole: Role;
  digest: string;
  decidedAt: string;
  seat: number;
  signature: string | null;
  keyId: string | null;
};

/**
 * The first decision whose signature does not verify, named by its seat and why, or null: a row
 * anyone holding the database role could write is not a decision until the app's key vouches for it
 * (lib/audit/decision-signature.ts), whatever else the row says.
 */
function signatureRefusal(request: TExecutionRow, decisions: readonly TRecordedDecision[]): string | null {
  return decisionsSignatureProblem(
    { id: request.id, approvalsRequired: Number(request.approvalsRequired) },
    decisions.map((d) => ({ ...d, decision: d.decision as "approve" | "reject", decidedAt: timestampFromText(d.decidedAt) })),
  );
}

/**
 * Why the request does not stand approved, or null: approved by as many different people as it needs,
 * each held again to the rules a person's decision is held to (lib/policy/approver-rules.ts), whoever
 * wrote its row – the role, and for two people, two different ones, neither the run's starter nor
 * anyone who lowered the refund.
 */
function approvalRefusal(request: TExecutionRow, decisions: readonly TRecordedDecision[]): string | null {
  const badSignature = signatureRefusal(request, decisions);
  if (badSignature) return badSignature;
  const lineage = JSON.parse(request.lineage) as { loweredByIds: string[]; approvalsRequired: number };
  // A lowered refund needs at least what the refund it replaced needed, whatever its own row says.
  const needed = Math.max(Number(request.approvalsRequired), lineage.approvalsRequired);
  const approvals = decisions.filter((d) => d.decision === "approve").length;
  if (request.status !== "approved" || decisions.length !== needed || approvals !== needed)
    return needed > 1 && approvals === decisions.length
      ? `the request has ${approvals} of ${needed} approvals`
      : "the request has not been approved";
  const terms = {
    kind: "refund" as const,
    requiredRole: request.requiredRole,
    approvalsRequired: needed,
    starterId: request.starterId,
    loweredByIds: lineage.loweredByIds,
  };
  const twoPeople = "a two-person refund needs two different people, neither of them the run's starter nor whoever lowered it";
  if (needed > 1 && decisions.some((d) => d.automatic)) return twoPeople;
  for (const [seat, d] of decisions.entries()) {
    if (d.automatic) {
      // A system approval stands only for what the policy itself auto-approved within the dial.
      if (request.proposalDecision !== "auto_approved" || request.simulated === null || isTrue(request.simulated))
        return "a system approval covers only a live refund the policy auto-approved";
      continue;
    }
    if (roleRefusal(d.deciderRole, terms)) return `approved by a ${d.deciderRole}, needs ${request.requiredRole}`;
    const earlier = decisions.slice(0, seat).map((e) => e.deciderId);
    if (seatRefusal(d.deciderId, terms, earlier, "approve")) return twoPeople;
  }
  return null;
}

/** The operation now is the operation that was approved: its digest, every decision's, and the proposal's fields. */
function matchesApproved(request: TExecutionRow, decisions: readonly TRecordedDecision[]): boolean {
  const operation = JSON.parse(request.operation) as TApprovalOperation;
  return (
    approvalDigest(operation) === request.digest &&
    decisions.every((d) => d.digest === request.digest) &&
    operation.proposal !== null &&
    operation.proposal.orderId === request.orderId &&
    operation.proposal.amountCents === Number(request.amountCents) &&
    operation.proposal.currency === request.currency &&
    operation.proposal.reason === request.reason
  );
}

export async function executeRefundOn(tx: TSqlTx, input: Omit<TExecuteInput, "client">): Promise<TExecutionResult> {
  const simulated = input.mode === "simulate";
  let [request] = await tx.rows<TExecutionRow>(READ_APPROVAL, [input.approvalId]);
  const answer = async (outcome: TExecutionOutcome, detail: string, extra: Partial<TExecutionResult> = {}): Promise<TExecutionResult> => {
    const result: TExecutionResult = {
      outcome,
      idempotencyKey: null,
      ledgerEntryId: null,
      amountCents: null,
      orderId: null,
      simulated,
      detail,
      ...extra,
    };
    if (!simulated) await recordAuditEvent(tx, auditOf(input, result, request?.ticketId ?? null));
    return result;
  };

  // Exists, approved by as many different people as it needs, each of a role the operation required.
  if (!request || request.kind !== "refund" || request.orderId === null)
    return answer("blocked:not_approved", "no approval request for a refund");
  const decisions = JSON.parse(request.decisions) as TRecordedDecision[];
  const notApproved = approvalRefusal(request, decisions);
  if (notApproved) return answer("blocked:not_approved", notApproved);
  // The operation now is the operation that was approved.
  const amountCents = Number(request.amountCents);
  if (!matchesApproved(request, decisions)) return answer("blocked:approval_mismatch", "the proposal no longer matches what was approved");
  if (input.refreshOrder && !simulated) {
    if (!(await input.refreshOrder(request.orderId)))
      return answer("blocked:order_unavailable", "the order source no longer has this order");
    // The order as its source has it now (its amount and currency may have changed there).
    [request] = await tx.rows<TExecutionRow>(READ_APPROVAL, [input.approvalId]);
    if (!request || request.orderId === null) return answer("blocked:not_approved", "no approval request for a refund");
  }

  const idempotencyKey = refundIdempotencyKey(request.id, request.digest);
  const facts = { idempotencyKey, amountCents, orderId: request.orderId };
  const expiresAt = timestampFromText(request.expiresAt);
  // Decided in time means executed: expiry is judged on the decisions' signed times, never on when a
  // worker gets to the job (a worker down past the expiry must not undo a decision made before it).
  const expired = decisions.some((d) => timestampFromText(d.decidedAt) > expiresAt);
  const orderCents = Number(request.orderCents);
  const sameCurrency = request.currency === request.orderCurrency;
  const created: TExecutionResult = {
    outcome: "refund_created",
    ...facts,
    ledgerEntryId: null,
    simulated,
    detail: "refund written to the ledger",
  };

  const ledger = await writeRefundIfRoom(tx, {
    idempotencyKey,
    orderId: request.orderId,
    amountCents,
    orderCents,
    allowed: !simulated && !expired && sameCurrency,
    audit: auditAppendArgument([auditOf(input, created, request.ticketId)]),
    approvalRequestId: request.id,
    currency: request.currency,
    actor: input.actor,
    provider: input.provider ?? "ledger-only",
    state: (input.provider ?? "ledger-only") === "ledger-only" ? "succeeded" : "requested",
  });
  if (ledger.created) return { ...created, ledgerEntryId: ledger.created };

  // Nothing was written: say why, in the order the rules are kept.
  if (ledger.existing)
    return answer("duplicate_ignored", "this approved operation was already executed", { ...facts, ledgerEntryId: ledger.existing });
  if (expired) return answer("blocked:approval_expired", `the approval expired at ${expiresAt.toISOString()}`, facts);
  const refunded = Number(ledger.refunded);
  if (!fitsRefundable(amountCents, { amountCents: orderCents }, refunded))
    return answer("blocked:exceeds_refundable", `${refunded} of ${orderCents} cents already refunded`, facts);
  if (!sameCurrency) return answer("blocked:approval_mismatch", "currency differs from the order's", facts);
  return answer("refund_created", "simulated: no ledger row written", facts);
}
