// What a run writes to the approvals' tables, gathered in one place: the pending request it
// supersedes when it starts, and at its end the request a person is asked to approve (with the
// source of its "waiting" notification), or a system approval of a proposal within the dial. Each is
// a fragment of the run's own statements (lib/agent/store/run-recorder.ts writes them with the run's start or end),
// so a run's approval costs no round trip of its own. Rows go in as one JSON value (canonical JSON,
// read back with jsonb_populate_record, so every value takes its column's own type).
import { Prisma } from "../../db";
import { canonicalJson } from "../../contracts/canonical";
import { WEBHOOK_CONFIGURED_SQL } from "../../policy/notification-settings";

const where = (when: Prisma.Sql | undefined) => (when ? Prisma.sql`WHERE ${when}` : Prisma.empty);

/**
 * CTE `superseded`: the ticket's pending request of an older run, superseded only when the same
 * statement moved the ticket (`ticket_moved`, lib/tickets/ticket-move-sql.ts). Read by SUPERSEDED_COUNT.
 */
export function supersedePendingCte(ticketId: string): Prisma.Sql {
  return Prisma.sql`superseded AS (
        UPDATE "ApprovalRequest" SET "status" = 'superseded'
        WHERE "ticketId" = ${ticketId}::uuid AND "status" = 'pending' AND EXISTS (SELECT 1 FROM ticket_moved)
        RETURNING id)`;
}

/** A select-list item: how many requests `superseded` superseded, as `superseded`. */
export const SUPERSEDED_COUNT = Prisma.sql`(SELECT count(*)::int FROM superseded) AS superseded`;

/** A CTE named `name`: an approval request, inserted only `when` the rest of the statement holds. */
export function insertRequestCte(name: string, row: Record<string, unknown>, when: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`${Prisma.raw(name)} AS (
    INSERT INTO "ApprovalRequest" ("id", "ticketId", "runId", "proposalId", "kind", "digest", "operation", "draft", "policyVersion", "bundleVersion", "agentVersion", "corpusHash", "requiredRole", "approvalsRequired", "status", "expiresAt", "createdAt", "editedFromId", "editedById")
    SELECT a."id", a."ticketId", a."runId", a."proposalId", a."kind", a."digest", a."operation", a."draft", a."policyVersion", a."bundleVersion", a."agentVersion", a."corpusHash", a."requiredRole", coalesce(a."approvalsRequired", 1), a."status", a."expiresAt", a."createdAt", a."editedFromId", a."editedById"
    FROM jsonb_populate_record(NULL::"ApprovalRequest", ${canonicalJson(row)}::jsonb) a
    ${where(when)}
    RETURNING id)`;
}

/** A CTE named `name`: an approval decision, inserted only `when` the rest of the statement holds. */
export function insertDecisionCte(name: string, row: Record<string, unknown>, when: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`${Prisma.raw(name)} AS (
    INSERT INTO "ApprovalDecision" ("id", "approvalRequestId", "decision", "automatic", "deciderId", "deciderRole", "originalReply", "digest", "createdAt", "signature", "keyId")
    SELECT d."id", d."approvalRequestId", d."decision", d."automatic", d."deciderId", d."deciderRole", d."originalReply", d."digest", d."createdAt", d."signature", d."keyId"
    FROM jsonb_populate_record(NULL::"ApprovalDecision", ${canonicalJson(row)}::jsonb) d
    ${where(when)}
    RETURNING id)`;
}

/** CTE `person_request`: the request a person is asked to approve, written only `when`. */
export function personRequestCte(row: Record<string, unknown>, when: Prisma.Sql): Prisma.Sql {
  return insertRequestCte("person_request", row, when);
}

/**
 * CTE `notify_source`: the person's request, only while a webhook is configured – the source of its
 * "waiting" notification's job, written by the same statement (lib/approvals/notify-approval.ts).
 */
export const NOTIFY_SOURCE = "notify_source";
export const NOTIFY_SOURCE_CTE = Prisma.sql`notify_source AS (SELECT id FROM person_request WHERE ${Prisma.raw(WEBHOOK_CONFIGURED_SQL)})`;

/** CTEs `system_request` and `system_decision`: a recorded system approval, written only `when`. */
export function systemApprovalCtes(request: Record<string, unknown>, decision: Record<string, unknown>, when: Prisma.Sql): Prisma.Sql[] {
  return [
    insertRequestCte("system_request", request, when),
    insertDecisionCte("system_decision", decision, Prisma.sql`EXISTS (SELECT 1 FROM system_request)`),
  ];
}
