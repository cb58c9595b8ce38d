// The deliveries store: the only code that writes ReplyDelivery and HelpdeskThread. It decides nothing:
// each function writes what the delivery (lib/delivery/deliver-reply.ts) or the inbound helpdesk routes
// decided, guarded by the delivery's state where a retry could race a late answer.
import { Prisma, type Db, type DbTx } from "../../db";

export type TDeliveryChannel = "outbox" | "webhook" | "zendesk" | "email";
export type TDeliveryState = "pending" | "delivered" | "failed" | "withdrawn";

/**
 * The delivery of a reply released by the same statement (CTE `delivery`, after the CTE `released`
 * that inserts the outbox message and returns its id and ticket): one delivery per released reply,
 * with the id its job carries.
 */
export function releasedDeliveryCte(d: { id: string; disclosed: boolean }): Prisma.Sql {
  return Prisma.sql`delivery AS (
      INSERT INTO "ReplyDelivery" ("id", "outboxMessageId", "ticketId", "disclosed")
      SELECT ${d.id}::uuid, released."id", released."ticketId", ${d.disclosed} FROM released RETURNING "id"
    )`;
}

/** A released reply's delivery, in the transaction that released it. */
export async function insertDelivery(tx: DbTx, d: { id: string; outboxMessageId: string; ticketId: string; disclosed: boolean }) {
  await tx.replyDelivery.create({ data: d });
}

/** One more attempt through `channel`; null when the delivery is not pending (delivered or failed already). */
export async function startAttempt(client: Db, id: string, channel: TDeliveryChannel): Promise<boolean> {
  const updated = await client.replyDelivery.updateMany({
    where: { id, state: "pending" },
    data: { attempts: { increment: 1 }, channel, updatedAt: new Date() },
  });
  return updated.count === 1;
}

/** Delivered, unless it is not pending any more (false): a late answer never overwrites a final state. */
export async function markDelivered(client: Db | DbTx, id: string, externalRef: string | null): Promise<boolean> {
  const at = new Date();
  const updated = await client.replyDelivery.updateMany({
    where: { id, state: "pending" },
    data: { state: "delivered", externalRef, deliveredAt: at, updatedAt: at, lastError: null },
  });
  return updated.count === 1;
}

/** An attempt's error; with `reason`, the delivery has failed for good (no retry follows). False: it was not pending. */
export async function recordFailure(client: Db | DbTx, id: string, failure: { error: string; reason: string | null }): Promise<boolean> {
  const updated = await client.replyDelivery.updateMany({
    where: { id, state: "pending" },
    data: {
      lastError: failure.error.slice(0, 1000),
      updatedAt: new Date(),
      ...(failure.reason ? { state: "failed", failureReason: failure.reason } : {}),
    },
  });
  return updated.count === 1;
}

/**
 * A released reply taken back before anything was sent: only a pending delivery with no attempt
 * started. The condition is the check: an attempt that started first (startAttempt) leaves it
 * pending with an attempt, and the reply counts as sent; one that comes after finds it withdrawn.
 */
export async function withdrawDelivery(tx: DbTx, outboxMessageId: string, reason: string): Promise<boolean> {
  const updated = await tx.replyDelivery.updateMany({
    where: { outboxMessageId, state: "pending", attempts: 0 },
    data: { state: "withdrawn", failureReason: reason, updatedAt: new Date() },
  });
  return updated.count === 1;
}

/** Where a ticket came from outside the app, written with the ticket's intake. */
export async function insertThread(
  client: Db | DbTx,
  t: {
    ticketId: string;
    channel: "zendesk" | "email";
    externalTicketId?: string | null;
    messageId?: string | null;
    subject?: string | null;
  },
): Promise<void> {
  await client.helpdeskThread.upsert({ where: { ticketId: t.ticketId }, create: t, update: {} });
}

/**
 * The ticket an email answers, from the Message-IDs its In-Reply-To and References name (nearest
 * first): the customer's first message (the thread), a later one of theirs, or a reply we sent (its
 * Message-ID is the delivery's externalRef). Null: the email starts a conversation.
 */
export async function findEmailThread(client: Db, messageIds: readonly string[]): Promise<string | null> {
  if (messageIds.length === 0) return null;
  const rows = await client.$queryRaw<{ ticketId: string }[]>`
    SELECT found."ticketId"::text AS "ticketId" FROM (
      SELECT h."ticketId", h."messageId" AS ref FROM "HelpdeskThread" h WHERE h."channel" = 'email' AND h."messageId" = ANY(${messageIds}::text[])
      UNION ALL
      SELECT m."ticketId", m."externalMessageId" FROM "TicketMessage" m WHERE m."channel" = 'email' AND m."externalMessageId" = ANY(${messageIds}::text[])
      UNION ALL
      SELECT d."ticketId", d."externalRef" FROM "ReplyDelivery" d WHERE d."channel" = 'email' AND d."externalRef" = ANY(${messageIds}::text[])
    ) found
    ORDER BY array_position(${messageIds}::text[], found.ref)
    LIMIT 1`;
  return rows[0]?.ticketId ?? null;
}

/** What delivering needs: the message, its ticket, the thread it answers. */
export function loadDelivery(client: Db, id: string) {
  return client.replyDelivery.findUnique({
    where: { id },
    include: {
      outboxMessage: { select: { body: true, approvalRequestId: true } },
      ticket: {
        select: {
          id: true,
          number: true,
          externalId: true,
          subject: true,
          customerEmail: true,
          helpdeskThread: true,
          // The customer's later emails, oldest first: the reply answers the newest.
          messages: {
            where: { kind: "customer", channel: "email", externalMessageId: { not: null } },
            orderBy: [{ createdAt: "asc" }, { id: "asc" }],
            select: { externalMessageId: true },
          },
        },
      },
    },
  });
}

export const DELIVERY_PAGE_SIZE = 100;

/** The newest deliveries first, optionally of one state. */
export function listDeliveries(client: Db, filter: { state?: TDeliveryState | null }) {
  return client.replyDelivery.findMany({
    where: filter.state ? { state: filter.state } : {},
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: DELIVERY_PAGE_SIZE,
    include: { ticket: { select: { id: true, number: true, subject: true } } },
  });
}

/** Erases what the deliveries and helpdesk threads kept of a customer's tickets: errors that may quote
 * an address, the thread's subject and message id. Channels, states, attempts and times stay. */
export async function eraseDeliveryRows(tx: DbTx, ticketIds: string[]): Promise<void> {
  await tx.$executeRaw`UPDATE "ReplyDelivery" SET "lastError" = NULL WHERE "ticketId" = ANY(${ticketIds}::uuid[])`;
  await tx.$executeRaw`UPDATE "HelpdeskThread" SET "subject" = NULL, "messageId" = NULL WHERE "ticketId" = ANY(${ticketIds}::uuid[])`;
}
