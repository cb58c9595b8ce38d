// Approved replies, oldest first, for the helpdesk integration to send. The helpdesk keeps its place
// with `after` (the last message id it has); reading changes nothing, so a retried read is harmless.
import { db as defaultDb, type Db } from "../db";

export const OUTBOX_PAGE_SIZE = 100;

export async function readOutbox(input: { after?: string | null; limit?: number; client?: Db }) {
  const client = input.client ?? defaultDb();
  const limit = Math.min(Math.max(input.limit ?? OUTBOX_PAGE_SIZE, 1), OUTBOX_PAGE_SIZE);
  let where = {};
  if (input.after) {
    const last = await client.outboxMessage.findUnique({ where: { id: input.after }, select: { createdAt: true, id: true } });
    if (!last) return null;
    where = { OR: [{ createdAt: { gt: last.createdAt } }, { createdAt: last.createdAt, id: { gt: last.id } }] };
  }
  const rows = await client.outboxMessage.findMany({
    where,
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: limit,
    include: { ticket: { select: { number: true, externalId: true, customerEmail: true } } },
  });
  return {
    messages: rows.map((m) => ({
      id: m.id,
      ticketId: m.ticketId,
      ticketNumber: m.ticket.number,
      externalId: m.ticket.externalId,
      customerEmail: m.ticket.customerEmail,
      approvalId: m.approvalRequestId,
      body: m.body,
      createdAt: m.createdAt.toISOString(),
    })),
    next: rows.length === limit ? rows.at(-1)!.id : null,
  };
}
