// The ticket lifecycle: every state a ticket can be in, and every move between them. Pages, the CLI,
// the agent runtime and the job queue all change a ticket's status through moveTicket (or
// ticketMoveSql, the same move inside a larger statement), and only through them: each move is a
// compare-and-set on the status it expects, so two callers racing for one ticket (a person
// resolving it by hand while a live run starts, two runs, a retried job) cannot both win – the
// loser gets a move refusal (an AppError, isMoveRefusal) and changes nothing.
//
//   open ─┬─ start_run ──▶ running ── finish_run ──▶ bypassed | blocked | needs_human | auto_approved
//         │                   └───── interrupt_run ─▶ needs_human (run_interrupted)
//         ├─ bypass ──────▶ bypassed                  (the admission gate at the loop's door)
//         └─ resolve_by_hand ▶ resolved               (also from bypassed, blocked, needs_human)
//   needs_human ─┬─ approve_refund ▶ approved ── refund_executed ▶ resolved
//                │                       └────── refund_blocked ─▶ needs_human (refund_blocked)
//                ├─ approve_reply ─▶ resolved
//                └─ reject ────────▶ needs_human (approval_rejected): a person answers or runs again
//   auto_approved ── refund_executed ▶ resolved | refund_blocked ▶ needs_human
//   approved | auto_approved | resolved ── refund_failed ▶ needs_human (refund_failed, or
//                                           refund_failed_after_reply when its reply was already sent)
//   needs_human | blocked | completed ── follow_up ▶ open (customer_follow_up): the customer wrote again
//   resolved ── reopen ▶ open (reopened_by_customer): the customer wrote again after the answer
//   needs_human ── send_back ▶ open (reviewer_feedback): a reviewer returned the draft with a note
//
// Live runs on a resolved ticket are refused, whoever asks. The ways back are the customer writing
// again (reopen), and the payment provider's word that a refund failed, even after it first
// succeeded: the customer was promised money they will not get, and a person must answer.
//
// Client components import this file (the status badge's words), so it imports no runtime code;
// ticketMoveSql, which builds SQL, is in store/ticket-move-sql.ts; the rows are written by store/ticket-store.ts.
import { AppError, isAppError, type TErrorCode } from "../contracts/app-error";
import type { TicketStatus } from "../../generated/prisma/enums";
import type { DbTx } from "../db";
import { LIFECYCLE_REASONS, type TLifecycleReason } from "../contracts/reason-codes";
import { moveTicketRow } from "./store/ticket-store";

/** Statuses a person or a new live run may take a ticket from: nothing is in flight. */
const SETTLED = ["open", "bypassed", "blocked", "needs_human", "completed"] as const satisfies readonly TicketStatus[];

export const TICKET_MOVES = {
  start_run: { from: SETTLED, to: ["running"] },
  bypass: { from: SETTLED, to: ["bypassed"] },
  finish_run: { from: ["running"], to: ["bypassed", "blocked", "needs_human", "auto_approved", "completed"] },
  interrupt_run: { from: ["running"], to: ["needs_human"] },
  approve_refund: { from: ["needs_human"], to: ["approved"] },
  approve_reply: { from: ["needs_human"], to: ["resolved"] },
  reject: { from: ["needs_human"], to: ["needs_human"] },
  refund_executed: { from: ["approved", "auto_approved"], to: ["resolved"] },
  refund_blocked: { from: ["approved", "auto_approved"], to: ["needs_human"] },
  refund_failed: { from: ["approved", "auto_approved", "resolved"], to: ["needs_human"] },
  resolve_by_hand: { from: SETTLED, to: ["resolved"] },
  follow_up: { from: ["needs_human", "blocked", "completed"], to: ["open"] },
  reopen: { from: ["resolved"], to: ["open"] },
  send_back: { from: ["needs_human"], to: ["open"] },
} as const satisfies Record<string, { from: readonly TicketStatus[]; to: readonly TicketStatus[] }>;

export type TTicketMove = keyof typeof TICKET_MOVES;

export const LIFECYCLE_REASON_LABELS: Record<TLifecycleReason, string> = {
  run_interrupted: "The agent's run was interrupted (its process stopped)",
  approval_rejected: "A person rejected the agent's proposal",
  refund_blocked: "The approved refund could not be executed",
  refund_failed: "The payment provider did not complete the refund; no reply went to the customer",
  refund_failed_after_reply: "The payment provider did not complete the refund, after the reply was sent: the customer needs a correction",
  customer_follow_up: "The customer wrote again: back in the queue for a new run",
  reopened_by_customer: "The customer wrote again after the answer: reopened",
  reviewer_feedback: "A reviewer sent the draft back to the agent with a note",
};

export function isLifecycleReason(value: unknown): value is TLifecycleReason {
  return typeof value === "string" && (LIFECYCLE_REASONS as readonly string[]).includes(value);
}

/** The codes a refused move carries (lib/contracts/app-error.ts). */
export const MOVE_REFUSALS = [
  "not_found",
  "ticket_resolved",
  "ticket_busy",
  "invalid_ticket_state",
] as const satisfies readonly TErrorCode[];
export type TMoveRefusal = (typeof MOVE_REFUSALS)[number];

/** A refused move, as a caller that handles it itself recognises it: an AppError with a move's code. */
export function isMoveRefusal(error: unknown): error is AppError<TMoveRefusal> {
  return isAppError(error, ...MOVE_REFUSALS);
}

/** Why a move from a status was refused (null: no such ticket), in words a reviewer understands. */
export function moveRefusal(move: TTicketMove, status: TicketStatus | null): AppError<TMoveRefusal> {
  if (status === null) return new AppError("not_found", "This ticket does not exist.");
  if (status === "resolved")
    return new AppError(
      "ticket_resolved",
      move === "start_run"
        ? "This ticket is resolved: run it in simulate mode to see what the agent would do."
        : "This ticket is already resolved.",
    );
  if (status === "running")
    return new AppError("ticket_busy", "The agent is working on this ticket right now: wait for its run to finish.");
  if (status === "approved" || status === "auto_approved")
    return new AppError("ticket_busy", "An approved refund is being executed for this ticket: wait for its outcome.");
  return new AppError("invalid_ticket_state", `A ticket that is ${status.replace("_", " ")} cannot ${move.replace("_", " ")}.`);
}

/** Where a move ends (`to` is needed only where it has several targets) and where it may start. */
export function moveRule(input: { move: TTicketMove; to?: TicketStatus }): { to: TicketStatus; from: readonly TicketStatus[] } {
  const rule = TICKET_MOVES[input.move];
  const to = input.to ?? rule.to[0];
  if (!(rule.to as readonly TicketStatus[]).includes(to)) throw new Error(`moveTicket: ${input.move} cannot end in ${to}`);
  return { to, from: rule.from };
}

/**
 * Moves a ticket, or throws its refusal (moveRefusal). `to` is needed only where a move has several targets
 * (finish_run). The update is the check: it matches only while the status is one the move starts
 * from, so whatever raced us first is what the refusal reports.
 */
export async function moveTicket(
  tx: DbTx,
  input: { ticketId: string; move: TTicketMove; to?: TicketStatus; reason?: string | null },
): Promise<{ from: TicketStatus; to: TicketStatus }> {
  const { to, from } = moveRule(input);
  const previous = await moveTicketRow(tx, { ticketId: input.ticketId, to, from, reason: input.reason ?? null });
  if (previous) return { from: previous, to };
  const current = await tx.ticket.findUnique({ where: { id: input.ticketId }, select: { status: true } });
  throw moveRefusal(input.move, current?.status ?? null);
}
