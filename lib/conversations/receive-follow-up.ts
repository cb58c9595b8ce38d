// A customer's follow-up on a ticket (the intake API, a helpdesk connector): a new message of its
// conversation, once per helpdesk message id. What the customer said since is not what a pending
// request was made on, so the request is superseded (customer_follow_up) and the ticket returns to
// the queue for a new run; a resolved ticket is reopened. The event is written first, then the
// message, the superseded requests and the ticket's move, in one transaction under the ticket's
// audit stream (the lock a run's end takes too), so a run ending meanwhile is seen whole or not at all.
import type { TicketStatus } from "../../generated/prisma/enums";
import { db as defaultDb, type Db, type DbTx } from "../db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { supersedeTicketPending } from "../approvals/store/approval-store";
import { moveTicket, type TTicketMove } from "../tickets/lifecycle";
import { findExternalMessage, insertMessage } from "../tickets/store/message-store";
import { nameOrder } from "../tickets/store/ticket-store";
import { orderSource } from "../orders/order-source";
import type { TIntakeMessage, TIntakeResponse } from "../intake/receive-intake";
import type { TLifecycleReason } from "../contracts/reason-codes";

export interface TFollowUp {
  /** The ticket: by our id (the thread id the intake answered with) or by the helpdesk's externalId. */
  ticket: { id: string } | { externalId: string };
  /** The helpdesk's own message id: the same id twice is one message. */
  messageId: string;
  body: string;
  /** Where it came from: "api" (the intake API) or a helpdesk channel. */
  channel: string;
  /** An order the helpdesk names with the message; otherwise one the message's words name. Either
   * becomes the ticket's order only when it is the ticket's customer's (customersOrderNamed). */
  orderId?: string | null;
  client?: Db;
}

export type TFollowUpResult =
  | { status: "created"; ticketId: string; messageId: string; ticketStatus: TicketStatus; superseded: string[]; orderNamed: string | null }
  | { status: "duplicate"; ticketId: string; messageId: string; ticketStatus: TicketStatus }
  | { status: "mismatch"; ticketId: string }
  | { status: "unknown_ticket" };

/** Order ids as shops write them (ORD-1002, SO-88213, ORD-EU-4411): letters, dashed parts, digits last. */
const ORDER_ID_IN_TEXT = /\b([A-Z]{2,6}(?:-[A-Z0-9]+)*-\d{2,12})\b/;

/** The order a follow-up names: the helpdesk's field, else the first order id in its words. */
export function orderNamedIn(body: string, orderId?: string | null): string | null {
  if (orderId?.trim()) return orderId.trim();
  return body.match(ORDER_ID_IN_TEXT)?.[1] ?? null;
}

/** Where a follow-up takes a ticket from its status; null: it stays (a run or a refund holds it, or it is open already). */
const MOVE_ON_FOLLOW_UP: Partial<Record<TicketStatus, { move: TTicketMove; reason: TLifecycleReason }>> = {
  needs_human: { move: "follow_up", reason: "customer_follow_up" },
  blocked: { move: "follow_up", reason: "customer_follow_up" },
  completed: { move: "follow_up", reason: "customer_follow_up" },
  resolved: { move: "reopen", reason: "reopened_by_customer" },
};

class Duplicate extends Error {}

/** Who delivered it, as the audit trail names it: the intake API, or the helpdesk connector by name. */
const actorOf = (channel: string) => (channel === "api" ? "intake" : channel);

export async function receiveFollowUp(input: TFollowUp): Promise<TFollowUpResult> {
  const client = input.client ?? defaultDb();
  const ticket = await client.ticket.findUnique({
    where: "id" in input.ticket ? { id: input.ticket.id } : { externalId: input.ticket.externalId },
    select: { id: true, customerEmail: true, orderRef: true },
  });
  if (!ticket) return { status: "unknown_ticket" };
  const repeat = await answerRepeat(client, ticket.id, input);
  if (repeat) return repeat;
  const orderNamed = await customersOrderNamed(client, ticket, orderNamedIn(input.body, input.orderId));
  try {
    return await client.$transaction((tx) =>
      storeFollowUpRows(tx, { ...input, ticketId: ticket.id, customerEmail: ticket.customerEmail, orderNamed }),
    );
  } catch (error) {
    // A concurrent delivery of the same message id won: answer as its repeat, nothing of ours is kept.
    if (error instanceof Duplicate) return (await answerRepeat(client, ticket.id, input))!;
    throw error;
  }
}

/**
 * The order a follow-up names, when it is another order of the ticket's own customer (as the order
 * source knows it): it becomes the ticket's order ("sorry, it is ORD-1002"). An order of someone else,
 * or none the source knows, changes nothing: words in a message never reach another customer's order.
 */
async function customersOrderNamed(
  client: Db,
  ticket: { customerEmail: string; orderRef: string | null },
  named: string | null,
): Promise<string | null> {
  if (!named || named.toUpperCase() === ticket.orderRef?.toUpperCase()) return null;
  const row = await orderSource().lookupOrder(client, named);
  const own = row && row.customerEmail.trim().toLowerCase() === ticket.customerEmail.trim().toLowerCase();
  return own ? row.id : null;
}

/** A message id already on the ticket: the same words are its repeat, other words a mismatch. */
async function answerRepeat(client: Db, ticketId: string, input: TFollowUp): Promise<TFollowUpResult | null> {
  const existing = await findExternalMessage(client, ticketId, input.messageId);
  if (!existing) return null;
  if (existing.body !== input.body) return { status: "mismatch", ticketId };
  const { status } = await client.ticket.findUniqueOrThrow({ where: { id: ticketId }, select: { status: true } });
  return { status: "duplicate", ticketId, messageId: existing.id, ticketStatus: status };
}

async function storeFollowUpRows(
  tx: DbTx,
  input: TFollowUp & { ticketId: string; customerEmail: string; orderNamed: string | null },
): Promise<TFollowUpResult> {
  const { ticketId, orderNamed } = input;
  // The stream's lock first (the event), then the ticket's row: the order every audited write takes.
  await recordAuditEvent(tx, {
    actorType: "api",
    actorId: actorOf(input.channel),
    action: "message.received",
    subjectType: "ticket",
    subjectId: ticketId,
    ticketId,
    inputs: { messageId: input.messageId, channel: input.channel, length: input.body.length, orderNamed },
  });
  const [locked] = await tx.$queryRaw<{ status: TicketStatus }[]>`SELECT status FROM "Ticket" WHERE id = ${ticketId}::uuid FOR UPDATE`;
  const status = locked!.status;
  const message = await insertMessage(tx, {
    ticketId,
    kind: "customer",
    authorType: "customer",
    authorId: null,
    authorLabel: input.customerEmail,
    channel: input.channel,
    body: input.body,
    externalMessageId: input.messageId,
  });
  if (!message) throw new Duplicate();
  if (orderNamed) await nameOrder(tx, ticketId, orderNamed);
  const next = MOVE_ON_FOLLOW_UP[status];
  // Under the stream's lock no request is added or decided meanwhile: the event names exactly those superseded.
  const pending = next ? await tx.approvalRequest.findMany({ where: { ticketId, status: "pending" }, select: { id: true } }) : [];
  if (pending.length)
    await recordAuditEvent(tx, {
      actorType: "api",
      actorId: actorOf(input.channel),
      action: "approval.superseded",
      subjectType: "ticket",
      subjectId: ticketId,
      ticketId,
      inputs: {
        count: pending.length,
        approvalRequestIds: pending.map((p) => p.id),
        reason: "customer_follow_up",
        messageId: input.messageId,
      },
    });
  const superseded = pending.length ? await supersedeTicketPending(tx, ticketId, "customer_follow_up") : [];
  if (next) await moveTicket(tx, { ticketId, move: next.move, reason: next.reason });
  return { status: "created", ticketId, messageId: message.id, ticketStatus: next ? "open" : status, superseded, orderNamed };
}

/** A follow-up delivered to the intake API, stored, as the API answers it (201, 200, 404, 409). */
export async function storeFollowUpDelivery(message: TIntakeMessage): Promise<TIntakeResponse> {
  const result = await receiveFollowUp({
    ticket: message.ticketId ? { id: message.ticketId } : { externalId: message.externalId! },
    messageId: message.messageId,
    body: message.body,
    channel: "api",
    orderId: message.orderId ?? null,
  });
  return followUpAnswer(result, message.messageId);
}

/** How every signed route answers a follow-up (the intake API, Zendesk, email): 201 new, 200 its repeat, 404, 409. */
export function followUpAnswer(result: TFollowUpResult, messageId: string): TIntakeResponse {
  switch (result.status) {
    case "unknown_ticket":
      return { status: 404, body: { error: "unknown_ticket", message: "No ticket has this ticketId or externalId; nothing was changed." } };
    case "mismatch":
      return {
        status: 409,
        body: {
          error: "idempotency_mismatch",
          message: `messageId ${messageId} was already delivered with a different body; nothing was changed.`,
          ticketId: result.ticketId,
        },
      };
    case "duplicate":
      return { status: 200, body: { ticketId: result.ticketId, messageId, status: result.ticketStatus, superseded: [] } };
    case "created":
      return { status: 201, body: { ticketId: result.ticketId, messageId, status: result.ticketStatus, superseded: result.superseded } };
  }
}
