// A person approves or rejects exactly the operation they saw. A decision is taken once; a stale,
// expired, superseded or wrongly-held request is refused with a reason the person can act on. An
// approved refund is executed by the job queue: its job is enqueued in the decision's own
// transaction, so a crash after the commit cannot strand it, and the customer's reply waits for the
// executor's outcome (settle-refund.ts). A rejection hands the ticket back to a person.
import type { Role, TicketStatus } from "../../generated/prisma/enums";
import { AppError, type TErrorCode } from "../contracts/app-error";
import { db as defaultDb, driverOf, isUniqueViolation, Prisma, type Db } from "../db";
import { preparedSql, statementRefusal, timestampFromText } from "../db/driver";
import { auditAppendArgument } from "../audit/record-audit-event";
import { POLICY_SETTING_KEYS, policySettingsFrom, policyVersion } from "../policy/settings";
import { QUEUES, sendingJobCte } from "../jobs/queue";
import { isMoveRefusal, moveRefusal, type TTicketMove } from "../tickets/lifecycle";
import { ticketMoveSql, type TTicketMoveColumns } from "../tickets/ticket-move-sql";
import { approvalDigest, approvalOperation, type TApprovalOperation } from "../contracts/approval-operation";
import { mayUse, roleSatisfies } from "../contracts/roles";
import { customerReply, replyEdit } from "../contracts/customer-reply";

/** The codes a refused decision carries (lib/contracts/app-error.ts); the page branches on them. */
export const DECISION_REFUSALS = ["not_found", "already_decided", "expired", "stale", "superseded", "role_insufficient", "note_required", "reply_required", "operation_changed", "ticket_busy"] as const satisfies readonly TErrorCode[];
export type TDecisionRefusal = (typeof DECISION_REFUSALS)[number];

/** A decision refused: an AppError whose code is one of DECISION_REFUSALS. */
export function decisionRefused(code: TDecisionRefusal, message: string): AppError<TDecisionRefusal> {
  return new AppError(code, message);
}

export interface TDecideInput {
  approvalId: string;
  decision: "approve" | "reject";
  /** The digest of the operation the person was shown: a request that changed since is refused. */
  digest: string;
  note?: string | null;
  /** The reply as the person edited it; stored beside the original. */
  editedReply?: string | null;
  actor: { id: string; role: Role };
  client?: Db;
  now?: Date;
}

export interface TDecideResult {
  decisionId: string;
  decision: "approve" | "reject";
  /** An approved refund: its execution job was enqueued with the decision (its id is the approval's). */
  refundJobEnqueued: boolean;
}

type TRequestRow = {
  id: string;
  ticketId: string;
  kind: "refund" | "reply";
  status: string;
  requiredRole: Role;
  digest: string;
  operation: string;
  draft: string | null;
  expiresAt: string;
  decided: "true" | "false";
  bundleVersion: string;
  settings: string;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// The request, whether it was decided, its ticket's bundle and the policy settings: one statement.
const LOAD_REQUEST = preparedSql(`
  SELECT r."id"::text, r."ticketId"::text, r."kind"::text, r."status"::text, r."requiredRole"::text, r."digest", r."operation"::text, r."draft", r."expiresAt"::text,
         (d."id" IS NOT NULL)::text AS "decided", t."bundleVersion",
         (SELECT coalesce(json_agg(json_build_object('key', s."key", 'value', s."value")), '[]'::json) FROM "Setting" s WHERE s."key" = ANY($2::text[]))::text AS "settings"
  FROM "ApprovalRequest" r
  JOIN "Ticket" t ON t."id" = r."ticketId"
  LEFT JOIN "ApprovalDecision" d ON d."approvalRequestId" = r."id"
  WHERE r."id" = $1::uuid`);

async function loadRequest(client: Db, approvalId: string): Promise<TRequestRow | null> {
  if (!UUID.test(approvalId)) return null;
  const [row] = await driverOf(client).rows<TRequestRow>(LOAD_REQUEST, [approvalId, POLICY_SETTING_KEYS]);
  return row ?? null;
}

/**
 * Approves or rejects. Two round trips, whatever the decision: the request (with everything the
 * checks need), then one statement that is its own transaction: the audit event, the request's new
 * status and the decision, the ticket's move, the reply or the refund's job.
 */
export async function decideApproval(input: TDecideInput): Promise<TDecideResult> {
  const client = input.client ?? defaultDb();
  const now = input.now ?? new Date();
  const note = input.note?.trim() || null;
  const request = await loadRequest(client, input.approvalId);
  if (!request) throw decisionRefused("not_found", "This approval request does not exist.");
  if (request.status === "superseded") throw decisionRefused("superseded", "A newer run of the agent replaced this request. Review the newest one on the ticket.");
  const expiresAt = timestampFromText(request.expiresAt);
  if (request.status === "expired") throw decisionRefused("expired", `This request expired at ${expiresAt.toISOString()}. Run the agent again for a fresh one.`);
  if (request.decided === "true" || request.status !== "pending") throw decisionRefused("already_decided", "This request has already been decided.");
  if (!roleSatisfies(input.actor.role, request.requiredRole)) {
    throw decisionRefused(
      "role_insufficient",
      !mayUse(input.actor.role, "approve") ? "Leads cannot approve or reject requests." : `This ${request.kind} needs a ${request.requiredRole.toLowerCase()} to decide it.`,
    );
  }
  if (input.digest !== request.digest) throw decisionRefused("operation_changed", "The request changed since you opened it. Reload the ticket and review it again.");
  if (now > expiresAt) throw decisionRefused("expired", `This request expired at ${expiresAt.toISOString()}. Run the agent again for a fresh one.`);
  // The digest the request would have if it were made now: a policy, bundle or agent change shows.
  const operation = JSON.parse(request.operation) as TApprovalOperation;
  const settings = JSON.parse(request.settings) as { key: string; value: unknown }[];
  const current = approvalDigest(approvalOperation({ proposal: operation.proposal, draft: operation.draft, policyVersion: policyVersion(policySettingsFrom(settings)), bundleVersion: request.bundleVersion }));
  if (current !== request.digest) {
    throw decisionRefused("stale", "The policy, intake bundle or agent changed since this request was made. Run the agent again for a fresh one.");
  }
  if (input.decision === "reject" && !note) throw decisionRefused("note_required", "Say why you reject it: a note is required.");

  const edited = replyEdit(request.draft, input.editedReply);
  const refund = input.decision === "approve" && request.kind === "refund";
  const draft = edited ?? request.draft;
  const reply = input.decision === "approve" && !refund && draft ? customerReply(draft) : null;
  const audit = auditAppendArgument([
    {
      actorType: "user",
      actorId: input.actor.id,
      action: input.decision === "approve" ? "approval.approved" : "approval.rejected",
      subjectType: "approval",
      subjectId: request.id,
      ticketId: request.ticketId,
      inputs: { kind: request.kind, digest: request.digest, role: input.actor.role, note, replyEdited: edited !== null },
    },
  ]);
  const moveKind: TTicketMove = input.decision === "reject" ? "reject" : refund ? "approve_refund" : "approve_reply";
  const move = ticketMoveSql({ ticketId: request.ticketId, move: moveKind, reason: input.decision === "reject" ? "approval_rejected" : null, when: Prisma.sql`EXISTS (SELECT FROM decided)` });
  // One statement, with no BEGIN or COMMIT around it: on its own it is one transaction. The audit event
  // first (the status update waits for it), then the status guarded by the status: a concurrent
  // decision that slipped past the checks above updates nothing. Whatever the CTEs could not do (the
  // status or the ticket's move), the last select-list item raises as a refusal (countersign_refuse),
  // and the statement fails: nothing it wrote stays, the audit event included. The refund's job is a
  // CTE too, written only with the decision: the reply waits for the executor's outcome and is
  // released by that job.
  const write = (job: Prisma.Sql) => {
    const statement = Prisma.sql`
    WITH audited AS (SELECT countersign_append_audit(${audit}::jsonb)),
    decided AS (
      UPDATE "ApprovalRequest" SET "status" = ${input.decision === "approve" ? "approved" : "rejected"}::"ApprovalStatus"
      WHERE "id" = ${request.id}::uuid AND "status" = 'pending' AND EXISTS (SELECT FROM audited) RETURNING "id"
    ),
    decision AS (
      INSERT INTO "ApprovalDecision" ("id", "approvalRequestId", "decision", "note", "originalReply", "editedReply", "deciderId", "deciderRole", "digest")
      SELECT gen_random_uuid(), decided."id", ${input.decision}::"DecisionKind", ${note}, ${request.draft}, ${edited}, ${input.actor.id}::uuid, ${input.actor.role}::"Role", ${request.digest}
      FROM decided RETURNING "id"::text
    ),
    ${move.ctes}${
      reply
        ? Prisma.sql`,
    released AS (
      INSERT INTO "OutboxMessage" ("id", "ticketId", "approvalRequestId", "body")
      SELECT gen_random_uuid(), ${request.ticketId}::uuid, decided."id", ${reply} FROM decided
    )`
        : Prisma.empty
    }${job}
    SELECT (SELECT "id" FROM decision) AS "decisionId", ${move.columns},
           CASE WHEN NOT EXISTS (SELECT FROM decision) THEN countersign_refuse('already_decided', NULL)
                WHEN NOT EXISTS (SELECT FROM ticket_moved) THEN countersign_refuse('ticket_move', (SELECT status::text FROM ticket_before))
                ELSE true END AS "written"`;
    return driverOf(client).rows<{ decisionId: string | null } & TTicketMoveColumns>(preparedSql(statement.text), statement.values);
  };
  let decisionId: string;
  try {
    const [row] = refund ? await sendingJobCte({ name: "job", source: "decided", queue: QUEUES.refundExecute, data: { approvalId: request.id }, id: request.id }, (job) => write(Prisma.sql`,\n    ${job}`)) : await write(Prisma.empty);
    move.result(row!);
    decisionId = row!.decisionId!;
  } catch (error) {
    const refused = statementRefusal(error);
    // The ticket's status under its row lock, when the move was refused: the lifecycle's words for it.
    const moveError = refused?.refusal === "ticket_move" ? moveRefusal(moveKind, refused.found as TicketStatus | null) : error;
    if (refused?.refusal === "already_decided" || isUniqueViolation(error)) throw decisionRefused("already_decided", "This request has already been decided.");
    if (isMoveRefusal(moveError)) throw decisionRefused(moveError.code === "ticket_resolved" ? "already_decided" : "ticket_busy", moveError.message);
    throw error;
  }
  return { decisionId, decision: input.decision, refundJobEnqueued: input.decision === "approve" && request.kind === "refund" };
}
