// A ticket the agent handed over with nothing to approve (no evidence, a missing order, a bypass):
// a person writes the reply and resolves it. Recorded like any decision: an approval request for the
// person's own reply and their decision on it, with the audit event, in one transaction.
import { committedText } from "../contracts/commitment";
import { randomUUID } from "node:crypto";
import type { Role } from "../../generated/prisma/enums";
import { db as defaultDb, isUniqueViolation, type Db } from "../db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { loadApprovalVersions } from "../policy/approval-versions";
import { approvalDigest, approvalOperation, APPROVAL_TTL_MS } from "../contracts/approval-operation";
import { decisionRefused } from "./decide-approval";
import { mayUse } from "../contracts/roles";
import { customerReply, normaliseLineEndings } from "../contracts/customer-reply";
import { isMoveRefusal, moveTicket } from "../tickets/lifecycle";
import { insertHandReply, releaseReply } from "./store/approval-store";
import { enqueueDelivery, replyRelease } from "./reply-release";
import { signDecision } from "../audit/decision-signature";
import { assertNoStaffText, assertReplyMatches, passagesOf } from "./reply-claims";

const PENDING_REQUEST = "A draft is waiting for a decision on this ticket: decide that request instead.";

/** The ticket a reply by hand resolves, refused when it is gone, resolved, waiting for a decision, or
 * when the reply repeats a staff-only passage the last run retrieved (the person was shown it). */
async function resolvableTicket(client: Db, ticketId: string, reply: string) {
  const ticket = await client.ticket.findUnique({
    where: { id: ticketId },
    include: {
      approvals: { where: { status: "pending" }, select: { id: true } },
      runs: { orderBy: { startedAt: "desc" }, take: 1, select: { evidence: true, draft: true, _count: { select: { proposals: true } } } },
    },
  });
  if (!ticket) throw decisionRefused("not_found", "This ticket does not exist.");
  assertNoStaffText(reply, passagesOf(ticket.runs[0]?.evidence), "reply");
  if (ticket.status === "resolved") throw decisionRefused("already_decided", "This ticket is already resolved.");
  if (ticket.approvals.length) throw decisionRefused("operation_changed", PENDING_REQUEST);
  return ticket;
}

export async function resolveByHand(input: {
  ticketId: string;
  reply: string;
  note?: string | null;
  actor: { id: string; role: Role };
  client?: Db;
}) {
  const client = input.client ?? defaultDb();
  const reply = normaliseLineEndings(input.reply).trim();
  // What the customer is sent is the reply without citation tokens (customerReply): a reply of
  // nothing but citations would send an empty message.
  const sent = customerReply(reply);
  if (!sent) throw decisionRefused("reply_required", "Write the reply the customer will receive.");
  if (!mayUse(input.actor.role, "approve")) throw decisionRefused("role_insufficient", "Leads cannot resolve tickets.");
  // A reply by hand goes out with no refund: it may not promise one.
  assertReplyMatches(reply, null, "reply");
  const ticket = await resolvableTicket(client, input.ticketId, reply);
  const customer = await client.customer.findUnique({ where: { email: ticket.customerEmail }, select: { salt: true } });
  const note = input.note?.trim() || null;
  const operation = await handReplyOperation(client, reply, ticket.bundleVersion);
  const digest = approvalDigest(operation);
  const decided = handReplyDecision(digest, input.actor);
  try {
    return await client.$transaction(async (tx) => {
      await recordAuditEvent(tx, {
        actorType: "user",
        actorId: input.actor.id,
        action: "ticket.resolved_by_hand",
        subjectType: "ticket",
        subjectId: ticket.id,
        ticketId: ticket.id,
        inputs: {
          digest,
          role: input.actor.role,
          // The note may name the customer: the chain holds its commitment, the decision's row the text.
          note: note === null ? null : committedText(customer?.salt ?? null, note),
          replyLength: reply.length,
          approvalRequestId: decided.id,
          signature: decided.signed.signature,
        },
      });
      const request = await insertHandReply(tx, {
        ...decided,
        ticketId: ticket.id,
        operation,
        digest,
        reply,
        note,
        decider: input.actor,
        expiresAt: new Date(Date.now() + APPROVAL_TTL_MS),
      });
      // A compare-and-set under the ticket's row lock: two people resolving at once, or a live run
      // starting meanwhile – one wins. Once it holds the lock, a run that finished in between is
      // visible, and its pending request refuses this resolution.
      await moveTicket(tx, { ticketId: ticket.id, move: "resolve_by_hand", reason: null });
      if (await tx.approvalRequest.count({ where: { ticketId: ticket.id, status: "pending" } }))
        throw decisionRefused("operation_changed", PENDING_REQUEST);
      const release = replyRelease(sent, startedFromAgentDraft(ticket.runs[0]));
      await releaseReply(tx, { ticketId: ticket.id, approvalRequestId: request.id, ...release });
      await enqueueDelivery(tx, release.delivery.id);
      return { approvalId: request.id };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw decisionRefused("already_decided", "This ticket is already resolved.");
    if (isMoveRefusal(error))
      throw decisionRefused(
        error.code === "ticket_resolved" ? "already_decided" : error.code === "ticket_busy" ? "ticket_busy" : "operation_changed",
        error.message,
      );
    throw error;
  }
}

/**
 * Whether the agent drafted this reply: the form starts from the last run's draft when that run
 * proposed no refund (the ticket page's handReplyStartOf), and a reply that started there is the
 * agent's draft edited by a person – disclosed as an approved draft is. Without such a draft the
 * person wrote it from nothing, and it carries no disclosure.
 */
function startedFromAgentDraft(run: { draft: string | null; _count: { proposals: number } } | undefined): boolean {
  return !!run?.draft && run._count.proposals === 0;
}

/** A hand reply's operation: no refund, the reply, under the policy and corpus in force now. */
async function handReplyOperation(client: Db, reply: string, bundleVersion: string) {
  const { current } = await loadApprovalVersions(client);
  return approvalOperation({
    proposal: null,
    draft: reply,
    policyVersion: current.policyVersion,
    bundleVersion,
    corpusHash: current.corpusHash,
  });
}

/** The hand reply's request id and its one decision, signed (lib/audit/decision-signature.ts) before they are written. */
function handReplyDecision(digest: string, actor: { id: string; role: Role }) {
  const id = randomUUID();
  const decidedAt = new Date();
  const signed = signDecision({
    approvalRequestId: id,
    digest,
    decision: "approve",
    deciderId: actor.id,
    deciderRole: actor.role,
    automatic: false,
    seat: 1,
    approvalsRequired: 1,
    decidedAt,
  });
  return { id, decidedAt, signed };
}
