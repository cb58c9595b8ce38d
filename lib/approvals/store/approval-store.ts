// The approvals store: the only code that writes ApprovalRequest, ApprovalDecision, RefundProposal
// and OutboxMessage (testing/lint/table-writers.test.ts holds every other file to it). It decides
// nothing: the rules are asked before (decision-options.ts, the policy gate), and each function here
// writes what was decided, guarded by the row's status where two writers could race. Statements that
// must be one round trip with other tables' writes are given as CTEs the caller composes.
import type { Role } from "../../../generated/prisma/enums";
import { Prisma, sqlRows, toJson, type DbTx } from "../../db";
import { canonicalJson } from "../../contracts/canonical";
import { runTyped, typed } from "../../db/typed-sql";
import type { TSqlTx } from "../../db/driver";
import type { TApprovalOperation } from "../../contracts/approval-operation";
import { insertDelivery, releasedDeliveryCte, withdrawDelivery } from "../../delivery/store/delivery-store";
import type { TSupersedeReason } from "../../contracts/reason-codes";

type TRequestStatus = "pending" | "approved" | "rejected";

/**
 * A decision as CTEs (`decided`, `decision`, and `released` when a reply goes out with it): the
 * request's new status, guarded by its status (a concurrent decision that slipped past the checks
 * updates nothing, so `decision` is empty), then the decision row in its seat. `after` names a CTE
 * the status update waits for (the audit event).
 */
export function decisionCtes(d: {
  after: string;
  requestId: string;
  ticketId: string;
  status: TRequestStatus;
  decision: "approve" | "reject";
  note: string | null;
  originalReply: string | null;
  editedReply: string | null;
  decider: { id: string; role: Role };
  digest: string;
  seat: number;
  reply: string | null;
  /** The released reply's delivery (its id is the delivery job's), with the reply. */
  delivery: { id: string; disclosed: boolean } | null;
  /** The time signed, stored as the decision's createdAt (never the database's now()), and the signature. */
  decidedAt: Date;
  signed: { signature: string; keyId: string };
}): Prisma.Sql {
  const decided = Prisma.sql`decided AS (
      UPDATE "ApprovalRequest" SET "status" = ${d.status}::"ApprovalStatus"
      WHERE "id" = ${d.requestId}::uuid AND "status" = 'pending' AND EXISTS (SELECT FROM ${Prisma.raw(d.after)}) RETURNING "id"
    ),
    decision AS (
      INSERT INTO "ApprovalDecision" ("id", "approvalRequestId", "decision", "note", "originalReply", "editedReply", "deciderId", "deciderRole", "digest", "seat", "createdAt", "signature", "keyId")
      SELECT gen_random_uuid(), decided."id", ${d.decision}::"DecisionKind", ${d.note}, ${d.originalReply}, ${d.editedReply}, ${d.decider.id}::uuid, ${d.decider.role}::"Role", ${d.digest}, ${d.seat}::smallint,
             ${d.decidedAt.toISOString()}::timestamp(3), ${d.signed.signature}, ${d.signed.keyId}
      FROM decided RETURNING "id"::text
    )`;
  if (d.reply === null || d.delivery === null) return decided;
  return Prisma.sql`${decided},
    released AS (
      INSERT INTO "OutboxMessage" ("id", "ticketId", "approvalRequestId", "body")
      SELECT gen_random_uuid(), ${d.ticketId}::uuid, decided."id", ${d.reply} FROM decided RETURNING "id", "ticketId"
    ),
    ${releasedDeliveryCte(d.delivery)}`;
}

/** The agent's refund proposal, as one JSON value: every value takes its column's type. */
export async function insertProposal(tx: TSqlTx, row: Record<string, unknown>): Promise<void> {
  await sqlRows(
    tx,
    Prisma.sql`INSERT INTO "RefundProposal" ("id", "runId", "ticketId", "orderId", "amountCents", "currency", "reason", "decision", "decisionReasons", "policyVersion", "requiredRole", "simulated", "createdAt")
      SELECT p."id", p."runId", p."ticketId", p."orderId", p."amountCents", p."currency", p."reason", p."decision", p."decisionReasons", p."policyVersion", p."requiredRole", p."simulated", p."createdAt"
      FROM jsonb_populate_record(NULL::"RefundProposal", ${canonicalJson(row)}::jsonb) p`,
  );
}

/** Marks a pending request expired; false when it was decided or expired meanwhile. */
export async function markExpired(tx: TSqlTx, requestId: string): Promise<boolean> {
  const rows = await runTyped(
    tx,
    typed
      .updateTable("ApprovalRequest")
      .set({ status: "expired" })
      .where("id", "=", requestId)
      .where("status", "=", "pending")
      .returning("id"),
  );
  return rows.length === 1;
}

/** The reminder's record (CTE `reminded`): once per request, only while it is pending and unexpired. */
export function remindedCte(requestId: string, at: string): Prisma.Sql {
  return Prisma.sql`reminded AS (
          UPDATE "ApprovalRequest" SET "remindedAt" = ${at}::timestamp(3)
          WHERE "id" = ${requestId}::uuid AND "status" = 'pending' AND "remindedAt" IS NULL AND "expiresAt" > ${at}::timestamp(3)
          RETURNING "id"
        )`;
}

/** Supersedes a pending request (a person lowered it); false when a decision came first. */
export async function supersedePending(tx: DbTx, requestId: string): Promise<boolean> {
  const replaced = await tx.approvalRequest.updateMany({ where: { id: requestId, status: "pending" }, data: { status: "superseded" } });
  return replaced.count === 1;
}

/** Supersedes the ticket's pending requests with the reason (SUPERSEDE_REASONS): the ids superseded. */
export async function supersedeTicketPending(tx: DbTx, ticketId: string, reason: TSupersedeReason): Promise<string[]> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    UPDATE "ApprovalRequest" SET "status" = 'superseded', "supersededReason" = ${reason}
    WHERE "ticketId" = ${ticketId}::uuid AND "status" = 'pending' RETURNING "id"::text`;
  return rows.map((r) => r.id);
}

/** Supersedes one request while it is pending, with the reason; false when a decision came first. */
export async function supersedeRequest(tx: DbTx, requestId: string, reason: TSupersedeReason): Promise<boolean> {
  const replaced = await tx.approvalRequest.updateMany({
    where: { id: requestId, status: "pending" },
    data: { status: "superseded", supersededReason: reason },
  });
  return replaced.count === 1;
}

/** The lowered refund: a new proposal beside the agent's, and a new request bound to its digest. */
export async function insertLoweredRequest(
  tx: DbTx,
  l: {
    original: { id: string; runId: string | null; ticketId: string; expiresAt: Date };
    proposal: { runId: string; ticketId: string; orderId: string; currency: string; reason: string };
    amountCents: number;
    reasons: string[];
    operation: TApprovalOperation;
    digest: string;
    draft: string;
    requiredRole: Role;
    approvalsRequired: number;
    editedById: string;
  },
): Promise<{ id: string }> {
  const proposal = await tx.refundProposal.create({
    data: {
      runId: l.proposal.runId,
      ticketId: l.proposal.ticketId,
      orderId: l.proposal.orderId,
      amountCents: l.amountCents,
      currency: l.proposal.currency,
      reason: l.proposal.reason,
      decision: "needs_human",
      decisionReasons: l.reasons,
      policyVersion: l.operation.policyVersion,
      requiredRole: l.requiredRole,
      simulated: false,
    },
  });
  return tx.approvalRequest.create({
    select: { id: true },
    data: {
      ticketId: l.original.ticketId,
      runId: l.original.runId,
      proposalId: proposal.id,
      kind: "refund",
      digest: l.digest,
      operation: toJson(l.operation),
      draft: l.draft,
      policyVersion: l.operation.policyVersion,
      bundleVersion: l.operation.bundleVersion,
      agentVersion: l.operation.agentVersion,
      corpusHash: l.operation.corpusHash,
      requiredRole: l.requiredRole,
      approvalsRequired: l.approvalsRequired,
      // The edit does not buy time: the original's expiry stands.
      expiresAt: l.original.expiresAt,
      editedFromId: l.original.id,
      editedById: l.editedById,
    },
  });
}

/** A person's own reply, approved by its writer: the request (its id chosen by the caller, who signed the decision) and its one decision. */
export async function insertHandReply(
  tx: DbTx,
  h: {
    id: string;
    decidedAt: Date;
    signed: { signature: string; keyId: string };
    ticketId: string;
    operation: TApprovalOperation;
    digest: string;
    reply: string;
    note: string | null;
    decider: { id: string; role: Role };
    expiresAt: Date;
  },
): Promise<{ id: string }> {
  const request = await tx.approvalRequest.create({
    select: { id: true },
    data: {
      id: h.id,
      ticketId: h.ticketId,
      kind: "reply",
      digest: h.digest,
      operation: toJson(h.operation),
      draft: h.reply,
      policyVersion: h.operation.policyVersion,
      bundleVersion: h.operation.bundleVersion,
      agentVersion: h.operation.agentVersion,
      corpusHash: h.operation.corpusHash,
      requiredRole: "REVIEWER",
      status: "approved",
      expiresAt: h.expiresAt,
    },
  });
  await tx.approvalDecision.create({
    data: {
      approvalRequestId: request.id,
      decision: "approve",
      note: h.note,
      originalReply: h.reply,
      deciderId: h.decider.id,
      deciderRole: h.decider.role,
      digest: h.digest,
      createdAt: h.decidedAt,
      signature: h.signed.signature,
      keyId: h.signed.keyId,
    },
  });
  return request;
}

/** Locks a request for its settlement (settlements of one approval queue here): its outcome so far and status. */
export async function lockForSettlement(tx: TSqlTx, requestId: string) {
  const rows = await runTyped(
    tx,
    typed.selectFrom("ApprovalRequest").select(["executionOutcome", "status"]).where("id", "=", requestId).forUpdate(),
  );
  return rows[0] ?? null;
}

/** The executor's final answer on its request, with what settling it needs: its decisions and whether a reply went out. */
export function recordExecutionOutcome(tx: DbTx, requestId: string, outcome: string, at: Date) {
  return tx.approvalRequest.update({
    where: { id: requestId },
    data: { executionOutcome: outcome, executedAt: at },
    include: { decisions: { orderBy: { seat: "desc" } }, outbox: { select: { id: true } } },
  });
}

/** The reply the customer is sent, after the decision or the refund it waited for, with its delivery. */
export async function releaseReply(
  tx: DbTx,
  r: { ticketId: string; approvalRequestId: string; body: string; delivery: { id: string; disclosed: boolean } },
): Promise<void> {
  const { delivery, ...message } = r;
  const created = await tx.outboxMessage.create({ data: message, select: { id: true } });
  await insertDelivery(tx, { id: delivery.id, outboxMessageId: created.id, ticketId: r.ticketId, disclosed: delivery.disclosed });
}

/** A released reply taken back before its delivery made any attempt; false when it may have been sent. */
export function withdrawReply(tx: DbTx, outboxMessageId: string, reason: "refund_failed"): Promise<boolean> {
  return withdrawDelivery(tx, outboxMessageId, reason);
}
