// What the refund job does with an approved refund, in one transaction: execute it (the executor's
// own checks, key and order lock), record the executor's final answer on the approval, and only then
// tell the customer – the approved reply goes to the outbox when the refund was written, and never
// when it was blocked (the ticket goes back to a person with the reason instead). Run it any number
// of times: the approval row's lock and its recorded outcome make every run after the first a no-op.
import { db as defaultDb, isUniqueViolation, type Db } from "../db";
import { prismaSqlTx } from "../db/driver";
import { recordAuditEvent } from "../audit/record-audit-event";
import { executeRefundOn } from "../ledger/execute-approved-refund";
import type { TExecutionOutcome } from "../contracts/reason-codes";
import { moveTicket } from "../tickets/lifecycle";
import { isAppError } from "../contracts/app-error";
import { customerReply } from "../contracts/customer-reply";
import { lockForSettlement, recordExecutionOutcome, releaseReply } from "./store/approval-store";

export const REFUND_WORKER_ACTOR = { type: "system", id: "refund-worker" } as const;

export interface TSettlement {
  outcome: TExecutionOutcome;
  /** False when an earlier run had already settled it. */
  settledNow: boolean;
  replyReleased: boolean;
}

/** The outcomes after which the customer may be told their refund is on its way. */
export function refundHappened(outcome: string | null): boolean {
  return outcome === "refund_created" || outcome === "duplicate_ignored";
}

export async function settleApprovedRefund(input: { approvalId: string; client?: Db }, attempt = 1): Promise<TSettlement> {
  const client = input.client ?? defaultDb();
  try {
    return await client.$transaction(
      async (tx) => {
        // Settlements of one approval queue here; whoever comes second finds the outcome recorded.
        const locked = await lockForSettlement(prismaSqlTx(tx), input.approvalId);
        if (!locked) throw new Error(`settleApprovedRefund: no approval ${input.approvalId}`);
        if (locked.executionOutcome)
          return { outcome: locked.executionOutcome as TExecutionOutcome, settledNow: false, replyReleased: false };

        const result = await executeRefundOn(prismaSqlTx(tx), { approvalId: input.approvalId, actor: REFUND_WORKER_ACTOR });
        // A job for a request still waiting (one of two approvals, a replayed or forged job): the
        // refusal is audited, but nothing is settled – the request stays decidable and its ticket
        // where it is, and the second approval's own job settles it.
        if (locked.status === "pending") return { outcome: result.outcome, settledNow: false, replyReleased: false };
        const request = await recordExecutionOutcome(tx, input.approvalId, result.outcome, new Date());

        let replyReleased = false;
        if (refundHappened(result.outcome)) {
          // The reply as the last person to approve left it (on a two-person request the second
          // approver saw the first one's edit).
          const draft = request.decisions.find((d) => d.editedReply !== null)?.editedReply ?? request.draft;
          const reply = draft ? customerReply(draft) : null;
          if (reply && !request.outbox) {
            await recordAuditEvent(tx, {
              actorType: REFUND_WORKER_ACTOR.type,
              actorId: REFUND_WORKER_ACTOR.id,
              action: "reply.released",
              subjectType: "approval",
              subjectId: request.id,
              ticketId: request.ticketId,
              inputs: { outcome: result.outcome, replyLength: reply.length },
            });
            await releaseReply(tx, { ticketId: request.ticketId, approvalRequestId: request.id, body: reply });
            replyReleased = true;
          }
          await settleTicket(() => moveTicket(tx, { ticketId: request.ticketId, move: "refund_executed" }));
        } else {
          await settleTicket(() => moveTicket(tx, { ticketId: request.ticketId, move: "refund_blocked", reason: "refund_blocked" }));
        }
        return { outcome: result.outcome, settledNow: true, replyReleased };
      },
      { timeout: 20_000, maxWait: 20_000 },
    );
  } catch (error) {
    // A concurrent execution of the same approval won the ledger key: it settles the approval.
    if (isUniqueViolation(error) && attempt === 1) return settleApprovedRefund(input, 2);
    throw error;
  }
}

/** Approvals decided before the lifecycle existed left their tickets resolved: nothing to move. */
async function settleTicket(move: () => Promise<unknown>) {
  try {
    await move();
  } catch (error) {
    if (isAppError(error, "ticket_resolved")) return;
    throw error;
  }
}

/**
 * Waits up to `ms` for the refund job to record an outcome (the approve action shows it to the
 * reviewer); null means it is still pending and the page follows it live.
 */
export async function awaitRefundOutcome(approvalId: string, ms: number, client: Db = defaultDb()): Promise<TExecutionOutcome | null> {
  const deadline = Date.now() + ms;
  for (;;) {
    const row = await client.approvalRequest.findUnique({ where: { id: approvalId }, select: { executionOutcome: true } });
    if (row?.executionOutcome) return row.executionOutcome as TExecutionOutcome;
    if (Date.now() >= deadline) return null;
    await new Promise((r) => setTimeout(r, 100));
  }
}
