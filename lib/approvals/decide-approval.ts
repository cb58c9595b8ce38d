// A person approves or rejects exactly the operation they saw. A decision is taken once; a stale,
// expired, superseded or wrongly-held request is refused with a reason the person can act on. An
// approved refund is executed by the job queue: its job is enqueued in the decision's own
// transaction, so a crash after the commit cannot strand it, and the customer's reply waits for the
// executor's outcome (settle-refund.ts). A rejection hands the ticket back to a person.
import type { Role } from "../../generated/prisma/enums";
import { db as defaultDb, isUniqueViolation, type Db } from "../db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { agentManifest } from "../agent/manifest";
import { loadPolicySettings, policyVersion } from "../policy/settings";
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

/** The digest the request would have if it were made now: a policy, bundle or agent change shows. */
async function currentDigest(client: Db, operation: TApprovalOperation, ticketBundle: string): Promise<string> {
  const settings = await loadPolicySettings(client);
  return approvalDigest({ ...operation, policyVersion: policyVersion(settings), bundleVersion: ticketBundle, agentVersion: agentManifest().agentVersion });
}

export async function decideApproval(input: TDecideInput): Promise<TDecideResult> {
  const client = input.client ?? defaultDb();
  const now = input.now ?? new Date();
  const note = input.note?.trim() || null;
  const request = await client.approvalRequest.findUnique({ where: { id: input.approvalId }, include: { decision: true, ticket: true } });
  if (!request) throw new DecisionRefused("not_found", "This approval request does not exist.");
  if (request.status === "superseded") throw new DecisionRefused("superseded", "A newer run of the agent replaced this request. Review the newest one on the ticket.");
  if (request.status === "expired") throw new DecisionRefused("expired", `This request expired at ${request.expiresAt.toISOString()}. Run the agent again for a fresh one.`);
  if (request.decision || request.status !== "pending") throw new DecisionRefused("already_decided", "This request has already been decided.");
  if (!roleSatisfies(input.actor.role, request.requiredRole)) {
    throw new DecisionRefused(
      "role_insufficient",
      input.actor.role === "LEAD" ? "Leads cannot approve or reject requests." : `This ${request.kind} needs a ${request.requiredRole.toLowerCase()} to decide it.`,
    );
  }
  if (input.digest !== request.digest) throw new DecisionRefused("operation_changed", "The request changed since you opened it. Reload the ticket and review it again.");
  if (now > request.expiresAt) throw new DecisionRefused("expired", `This request expired at ${request.expiresAt.toISOString()}. Run the agent again for a fresh one.`);
  const operation = request.operation as unknown as TApprovalOperation;
  if ((await currentDigest(client, operation, request.ticket.bundleVersion)) !== request.digest) {
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
      const row = await tx.approvalDecision.create({
        data: {
          approvalRequestId: request.id,
          decision: input.decision,
          note,
          originalReply: request.draft,
          editedReply: edited,
          deciderId: input.actor.id,
          deciderRole: input.actor.role,
          digest: request.digest,
        },
      });
      // Guarded by status: a concurrent decision that slipped past the checks above updates nothing.
      const updated = await tx.approvalRequest.updateMany({ where: { id: request.id, status: "pending" }, data: { status: input.decision === "approve" ? "approved" : "rejected" } });
      if (updated.count !== 1) throw new DecisionRefused("already_decided", "This request has already been decided.");
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
