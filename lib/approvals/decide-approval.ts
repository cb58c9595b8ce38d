// A person approves or rejects exactly the operation they saw. A decision is taken once; a stale,
// expired, superseded or wrongly-held request is refused with a reason the person can act on. An
// approved refund is executed by the job queue: its job is enqueued in the decision's own
// transaction, so a crash after the commit cannot strand it, and the customer's reply waits for the
// executor's outcome (settle-refund.ts). A rejection hands the ticket back to a person.
import type { Role } from "../../generated/prisma/enums";
import { db as defaultDb, isUniqueViolation, type Db } from "../db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { agentManifest } from "../agent/manifest";
import { POLICY_SETTING_KEYS, policySettingsFrom, policyVersion } from "../policy/settings";
import { enqueue, QUEUES } from "../jobs/queue";
import { moveTicket, TicketMoveRefused } from "../tickets/lifecycle";
import { approvalDigest, type TApprovalOperation } from "./approval-digest";
import { roleSatisfies } from "./roles";
import { recordHumanDecisionOnShadows } from "../eval/shadow";

export type TDecisionRefusal = "not_found" | "already_decided" | "expired" | "stale" | "superseded" | "role_insufficient" | "note_required" | "operation_changed" | "ticket_busy";

export class DecisionRefused extends Error {
  constructor(readonly code: TDecisionRefusal, message: string) {
    super(message);
    this.name = "DecisionRefused";
  }
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
  operation: TApprovalOperation;
  draft: string | null;
  expiresAt: Date;
  decided: boolean;
  bundleVersion: string;
  settings: { key: string; value: unknown }[];
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The request, whether it was decided, its ticket's bundle and the policy settings: one statement. */
async function loadRequest(client: Db, approvalId: string): Promise<TRequestRow | null> {
  if (!UUID.test(approvalId)) return null;
  const [row] = await client.$queryRaw<TRequestRow[]>`
    SELECT r."id"::text, r."ticketId"::text, r."kind"::text, r."status"::text, r."requiredRole"::text AS "requiredRole", r."digest", r."operation", r."draft", r."expiresAt",
           (d."id" IS NOT NULL) AS "decided", t."bundleVersion",
           (SELECT coalesce(json_agg(json_build_object('key', s."key", 'value', s."value")), '[]'::json) FROM "Setting" s WHERE s."key" = ANY(${POLICY_SETTING_KEYS})) AS "settings"
    FROM "ApprovalRequest" r
    JOIN "Ticket" t ON t."id" = r."ticketId"
    LEFT JOIN "ApprovalDecision" d ON d."approvalRequestId" = r."id"
    WHERE r."id" = ${approvalId}::uuid`;
  return row ?? null;
}

/**
 * Approves or rejects. Eight round trips for an approved refund: the request (with everything the
 * checks need), then BEGIN, the audit event, the decision with the request's new status, the ticket's
 * move, the shadow decisions' outcome, the refund job, COMMIT.
 */
export async function decideApproval(input: TDecideInput): Promise<TDecideResult> {
  const client = input.client ?? defaultDb();
  const now = input.now ?? new Date();
  const note = input.note?.trim() || null;
  const request = await loadRequest(client, input.approvalId);
  if (!request) throw new DecisionRefused("not_found", "This approval request does not exist.");
  if (request.status === "superseded") throw new DecisionRefused("superseded", "A newer run of the agent replaced this request. Review the newest one on the ticket.");
  if (request.status === "expired") throw new DecisionRefused("expired", `This request expired at ${request.expiresAt.toISOString()}. Run the agent again for a fresh one.`);
  if (request.decided || request.status !== "pending") throw new DecisionRefused("already_decided", "This request has already been decided.");
  if (!roleSatisfies(input.actor.role, request.requiredRole)) {
    throw new DecisionRefused(
      "role_insufficient",
      input.actor.role === "LEAD" ? "Leads cannot approve or reject requests." : `This ${request.kind} needs a ${request.requiredRole.toLowerCase()} to decide it.`,
    );
  }
  if (input.digest !== request.digest) throw new DecisionRefused("operation_changed", "The request changed since you opened it. Reload the ticket and review it again.");
  if (now > request.expiresAt) throw new DecisionRefused("expired", `This request expired at ${request.expiresAt.toISOString()}. Run the agent again for a fresh one.`);
  // The digest the request would have if it were made now: a policy, bundle or agent change shows.
  const current = approvalDigest({ ...request.operation, policyVersion: policyVersion(policySettingsFrom(request.settings)), bundleVersion: request.bundleVersion, agentVersion: agentManifest().agentVersion });
  if (current !== request.digest) {
    throw new DecisionRefused("stale", "The policy, intake bundle or agent changed since this request was made. Run the agent again for a fresh one.");
  }
  if (input.decision === "reject" && !note) throw new DecisionRefused("note_required", "Say why you reject it: a note is required.");

  const edited = input.editedReply?.trim() && input.editedReply.trim() !== request.draft?.trim() ? input.editedReply.trim() : null;
  let decisionId: string;
  try {
    decisionId = await client.$transaction(async (tx) => {
      await recordAuditEvent(tx, {
        actorType: "user",
        actorId: input.actor.id,
        action: input.decision === "approve" ? "approval.approved" : "approval.rejected",
        subjectType: "approval",
        subjectId: request.id,
        ticketId: request.ticketId,
        inputs: { kind: request.kind, digest: request.digest, role: input.actor.role, note, replyEdited: edited !== null },
      });
      // The decision, and the request's status guarded by its status: a concurrent decision that
      // slipped past the checks above inserts nothing.
      const [row] = await tx.$queryRaw<{ id: string }[]>`
        WITH decided AS (
          UPDATE "ApprovalRequest" SET "status" = ${input.decision === "approve" ? "approved" : "rejected"}::"ApprovalStatus"
          WHERE "id" = ${request.id}::uuid AND "status" = 'pending' RETURNING "id"
        )
        INSERT INTO "ApprovalDecision" ("id", "approvalRequestId", "decision", "note", "originalReply", "editedReply", "deciderId", "deciderRole", "digest")
        SELECT gen_random_uuid(), decided."id", ${input.decision}::"DecisionKind", ${note}, ${request.draft}, ${edited}, ${input.actor.id}::uuid, ${input.actor.role}::"Role", ${request.digest}
        FROM decided RETURNING "id"::text`;
      if (!row) throw new DecisionRefused("already_decided", "This request has already been decided.");
      const refund = input.decision === "approve" && request.kind === "refund";
      if (input.decision === "reject") await moveTicket(tx, { ticketId: request.ticketId, move: "reject", reason: "approval_rejected" });
      else await moveTicket(tx, { ticketId: request.ticketId, move: refund ? "approve_refund" : "approve_reply", reason: null });
      await recordHumanDecisionOnShadows(tx, request.ticketId, input.decision);
      if (refund) {
        // The reply waits for the executor's outcome: it is released by the refund job.
        await enqueue(tx, QUEUES.refundExecute, { approvalId: request.id }, { id: request.id });
      } else if (input.decision === "approve" && (edited ?? request.draft)) {
        await tx.outboxMessage.create({ data: { ticketId: request.ticketId, approvalRequestId: request.id, body: (edited ?? request.draft)! } });
      }
      return row.id;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new DecisionRefused("already_decided", "This request has already been decided.");
    if (error instanceof TicketMoveRefused) throw new DecisionRefused(error.code === "ticket_resolved" ? "already_decided" : "ticket_busy", error.message);
    throw error;
  }
  return { decisionId, decision: input.decision, refundJobEnqueued: input.decision === "approve" && request.kind === "refund" };
}
