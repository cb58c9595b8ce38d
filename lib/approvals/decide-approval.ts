// A person approves or rejects exactly the operation they saw. A request needs one approval, or two
// from different people at or above the two-person threshold (neither of them the run's starter); each
// is its own decision row, and one rejection ends the request. A decision is taken once; a stale,
// expired, superseded or wrongly-held request is refused with a reason the person can act on. An
// approved refund is executed by the job queue: its job is enqueued in the decision's own
// transaction, so a crash after the commit cannot strand it, and the customer's reply waits for the
// executor's outcome (settle-refund.ts). A rejection hands the ticket back to a person.
import { committedText } from "../contracts/commitment";
import type { Role, TicketStatus } from "../../generated/prisma/enums";
import { db as defaultDb, driverOf, isUniqueViolation, Prisma, type Db } from "../db";
import { preparedSql, statementRefusal, violatedConstraint } from "../db/driver";
import { auditAppendArgument } from "../audit/record-audit-event";
import { appendAuditSql } from "../audit/store/audit-store";
import { sendingJobCte } from "../jobs/queue";
import { REFUND_EXECUTE_JOB, REPLY_DELIVER_JOB } from "../jobs/definitions";
import { replyRelease } from "./reply-release";
import { isMoveRefusal, moveRefusal, type TTicketMove } from "../tickets/lifecycle";
import { ticketMoveSql, type TTicketMoveColumns } from "../tickets/store/ticket-move-sql";
import { customerReply, replyEdit } from "../contracts/customer-reply";
import { isAppError } from "../contracts/app-error";
import { decisionRefused, loadDecidable } from "./load-decidable";
import { editRefundAmount } from "./edit-approval";
import { decisionCtes } from "./store/approval-store";
import { signDecision } from "../audit/decision-signature";
import { assertNoStaffText, assertReplyMatches } from "./reply-claims";

export { DECISION_REFUSALS, decisionRefused, type TDecisionRefusal } from "./load-decidable";

export interface TDecideInput {
  approvalId: string;
  decision: "approve" | "reject";
  /** The digest of the operation the person was shown: a request that changed since is refused. */
  digest: string;
  note?: string | null;
  /** The reply as the person edited it; stored beside the original. */
  editedReply?: string | null;
  /** A refund lowered by the person (cents): approved as a new request with its own digest. */
  amountCents?: number | null;
  actor: { id: string; role: Role };
  client?: Db;
  now?: Date;
}

export interface TDecideResult {
  /** The request decided: the one asked for, or the one a lowered amount replaced it with. */
  approvalId: string;
  ticketId: string;
  /**
   * The decision written; null when the person lowered a two-person refund: the lowered request is
   * made, but whoever lowered it counts as its starter, so it waits for two other people.
   */
  decisionId: string | null;
  decision: "approve" | "reject";
  /** An approved refund: its execution job was enqueued with the decision (its id is the approval's). */
  refundJobEnqueued: boolean;
  /** Approvals the request now has, of those it needs: 1 of 2 leaves it waiting for a second person. */
  approvals: number;
  approvalsRequired: number;
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
  // A lowered refund is a new request with its own digest (edit-approval.ts); it is approved there.
  const amountGiven = input.amountCents !== undefined && input.amountCents !== null;
  if (amountGiven && input.decision === "approve") {
    const edited = await editRefundAmount({ ...input, amountCents: input.amountCents!, client, now });
    if (edited) return approveLowered({ ...input, client, now }, edited);
  }
  // Every rule of who may decide what (decision-options.ts), the amount and the order's room included.
  const request = await loadDecidable(client, { ...input, amountCents: amountGiven ? input.amountCents! : undefined }, now);
  if (input.decision === "reject" && !note) throw decisionRefused("note_required", "Say why you reject it: a note is required.");
  const plan = planDecision(request, input, note, now);
  // The reply an approval sends, edited or not, states the refund being made and nothing else, and
  // nothing written for staff only.
  if (input.decision === "approve") {
    assertReplyMatches(plan.edited ?? request.draft, request.refund, "editedReply");
    assertNoStaffText(plan.edited ?? request.draft, request.passages, "editedReply");
  }
  const decisionId = await writeDecision(client, request, input, plan);
  return {
    approvalId: request.id,
    ticketId: request.ticketId,
    decisionId,
    decision: input.decision,
    refundJobEnqueued: plan.refund,
    approvals: plan.approvals,
    approvalsRequired: request.approvalsRequired,
  };
}

/**
 * The person's approval of the refund they just lowered. Whoever lowered a two-person refund counts as
 * one of its starters (lib/policy/approver-rules.ts): their approval is refused there, and the lowered
 * request is answered as made and waiting for two other people, with no decision of theirs.
 */
async function approveLowered(
  input: TDecideInput,
  edited: NonNullable<Awaited<ReturnType<typeof editRefundAmount>>>,
): Promise<TDecideResult> {
  try {
    return await decideApproval({ ...input, approvalId: edited.approvalId, digest: edited.digest, amountCents: null, editedReply: null });
  } catch (error) {
    if (!isAppError(error, "run_starter_excluded")) throw error;
    return {
      approvalId: edited.approvalId,
      ticketId: edited.ticketId,
      decisionId: null,
      decision: "approve",
      refundJobEnqueued: false,
      approvals: 0,
      approvalsRequired: edited.approvalsRequired,
    };
  }
}

type TDecidable = Awaited<ReturnType<typeof loadDecidable>>;

/** What the decision writes: its seat, the request's new status, the ticket's move, the reply or the refund's job, the event. */
function planDecision(request: TDecidable, input: TDecideInput, note: string | null, now: Date) {
  const decisions = request.decisions;
  // The seat this decision takes; the request is decided when the last seat is filled or anyone rejects.
  const seat = decisions.length + 1;
  // Signed before the statement, over the time the statement stores (lib/audit/decision-signature.ts).
  const signed = signDecision({
    approvalRequestId: request.id,
    digest: request.digest,
    decision: input.decision,
    deciderId: input.actor.id,
    deciderRole: input.actor.role,
    automatic: false,
    seat,
    approvalsRequired: request.approvalsRequired,
    decidedAt: now,
  });
  const complete = input.decision === "reject" || seat >= request.approvalsRequired;
  const edited = replyEdit(request.draft, input.editedReply);
  const draft = edited ?? request.draft;
  const approvals = input.decision === "approve" ? seat : decisions.length;
  const moveKind: TTicketMove = input.decision === "reject" ? "reject" : request.kind === "refund" ? "approve_refund" : "approve_reply";
  return {
    seat,
    decidedAt: now,
    signed,
    edited,
    approvals,
    moveKind,
    refund: complete && input.decision === "approve" && request.kind === "refund",
    // The agent drafted it (a person may have edited it): released with the disclosure when the setting asks.
    release:
      complete && input.decision === "approve" && request.kind === "reply" && draft ? replyRelease(customerReply(draft), true) : null,
    status: !complete ? ("pending" as const) : input.decision === "approve" ? ("approved" as const) : ("rejected" as const),
    audit: decisionAudit({ request, actor: input.actor, decision: input.decision, note, replyEdited: edited !== null, approvals, signed }),
    note,
    // A first of two approvals moves nothing: the ticket keeps waiting for the second.
    move: complete
      ? ticketMoveSql({
          ticketId: request.ticketId,
          move: moveKind,
          reason: input.decision === "reject" ? "approval_rejected" : null,
          when: Prisma.sql`EXISTS (SELECT FROM decided)`,
        })
      : null,
  };
}

/**
 * The decision as one statement, with no BEGIN or COMMIT around it: on its own it is one transaction.
 * The audit event first (the status update waits for it), then the status guarded by the status: a
 * concurrent decision that slipped past the checks updates nothing. Whatever the CTEs could not do
 * (the status or the ticket's move), the last select-list item raises as a refusal
 * (countersign_refuse), and the statement fails: nothing it wrote stays, the audit event included.
 * The refund's job is a CTE too, written only with the decision: the reply waits for the executor's
 * outcome and is released by that job. A first of two approvals keeps the status pending: its update
 * only locks the request, so a second approver waits for it, and two people taking the same seat at
 * once meet the (request, seat) unique index. Returns the decision's id.
 */
async function writeDecision(client: Db, request: TDecidable, input: TDecideInput, plan: ReturnType<typeof planDecision>): Promise<string> {
  const { move } = plan;
  const write = (job: Prisma.Sql) => {
    const statement = Prisma.sql`
    WITH audited AS (${appendAuditSql(plan.audit)}),
    ${decisionCtes({
      after: "audited",
      requestId: request.id,
      ticketId: request.ticketId,
      status: plan.status,
      decision: input.decision,
      note: plan.note,
      originalReply: request.draft,
      editedReply: plan.edited,
      decider: input.actor,
      digest: request.digest,
      seat: plan.seat,
      reply: plan.release?.body ?? null,
      delivery: plan.release?.delivery ?? null,
      decidedAt: plan.decidedAt,
      signed: plan.signed,
    })}${move ? Prisma.sql`,\n    ${move.ctes}` : Prisma.empty}${job}
    SELECT (SELECT "id" FROM decision) AS "decisionId"${move ? Prisma.sql`, ${move.columns}` : Prisma.empty},
           CASE WHEN NOT EXISTS (SELECT FROM decision) THEN countersign_refuse('already_decided', NULL)${
             move
               ? Prisma.sql`
                WHEN NOT EXISTS (SELECT FROM ticket_moved) THEN countersign_refuse('ticket_move', (SELECT status::text FROM ticket_before))`
               : Prisma.empty
           }
                ELSE true END AS "written"`;
    return driverOf(client).rows<{ decisionId: string | null } & TTicketMoveColumns>(preparedSql(statement.text), statement.values);
  };
  try {
    const [row] = plan.refund
      ? await sendingJobCte(
          { name: "job", source: "decided", job: REFUND_EXECUTE_JOB, data: { approvalId: request.id }, id: request.id },
          (job) => write(Prisma.sql`,\n    ${job}`),
        )
      : plan.release
        ? await sendingJobCte(
            {
              name: "delivery_job",
              source: "delivery",
              job: REPLY_DELIVER_JOB,
              data: { deliveryId: plan.release.delivery.id },
              id: plan.release.delivery.id,
            },
            (job) => write(Prisma.sql`,\n    ${job}`),
          )
        : await write(Prisma.empty);
    move?.result(row!);
    return row!.decisionId!;
  } catch (error) {
    throw decisionWriteRefusal(error, plan, request.approvalsRequired);
  }
}

/** What a refused decision statement means for the person: decided already, its seat taken meanwhile, or the ticket's move refused in the lifecycle's words. */
function decisionWriteRefusal(error: unknown, plan: { moveKind: TTicketMove; seat: number }, approvalsRequired: number): unknown {
  const refused = statementRefusal(error);
  // The ticket's status under its row lock, when the move was refused: the lifecycle's words for it.
  const moveError = refused?.refusal === "ticket_move" ? moveRefusal(plan.moveKind, refused.found as TicketStatus | null) : error;
  if (isUniqueViolation(error)) return seatTaken(error, plan.seat, approvalsRequired);
  if (refused?.refusal === "already_decided") return decisionRefused("already_decided", "This request has already been decided.");
  if (isMoveRefusal(moveError))
    return decisionRefused(moveError.code === "ticket_resolved" ? "already_decided" : "ticket_busy", moveError.message);
  return error;
}

/**
 * A decision that met the (request, seat) or (request, person) index: two decisions at once on a
 * request that stays pending after the first (an approval of a two-person request), or the same
 * person twice. The status guard let both through, since the first left the request pending; the
 * index let one in, and this one wrote nothing: its audit event is undone with it.
 */
function seatTaken(error: unknown, seat: number, approvalsRequired: number) {
  if (violatedConstraint(error) === "ApprovalDecision_approvalRequestId_deciderId_key")
    return decisionRefused("second_approver_required", "You gave the first approval: the second must come from a different person.");
  if (approvalsRequired < 2) return decisionRefused("already_decided", "This request has already been decided.");
  const left = approvalsRequired - seat;
  return decisionRefused(
    "approved_meanwhile",
    `Another person approved this request at the same moment, and theirs counted as approval ${seat} of ${approvalsRequired}: yours was not recorded. ` +
      `The request has ${seat} of ${approvalsRequired} approvals and waits for ${left === 1 ? "one more" : `${left} more`}; reload the ticket to give it.`,
  );
}

/** The decision's audit event, appended by the statement that writes the decision. */
function decisionAudit(d: {
  request: { id: string; ticketId: string; kind: string; digest: string; approvalsRequired: number; salt: string | null };
  actor: { id: string; role: Role };
  decision: "approve" | "reject";
  note: string | null;
  replyEdited: boolean;
  approvals: number;
  signed: { signature: string; keyId: string };
}) {
  return auditAppendArgument([
    {
      actorType: "user",
      actorId: d.actor.id,
      action: d.decision === "approve" ? "approval.approved" : "approval.rejected",
      subjectType: "approval",
      subjectId: d.request.id,
      ticketId: d.request.ticketId,
      inputs: {
        kind: d.request.kind,
        digest: d.request.digest,
        role: d.actor.role,
        // The note may name the customer: the chain holds its commitment, the decision's row the text.
        note: d.note === null ? null : committedText(d.request.salt, d.note),
        replyEdited: d.replyEdited,
        approvals: d.approvals,
        approvalsRequired: d.request.approvalsRequired,
        // The decision's own signature: audit:verify holds each decision to the event that carries it.
        signature: d.signed.signature,
      },
    },
  ]);
}
