// Approved replies, oldest first, for the helpdesk integration to send. The helpdesk keeps its place
// with `after` (the last message id it has); reading changes nothing, so a retried read is harmless.
import { db as defaultDb, type Db, type Prisma } from "../db";

export const OUTBOX_PAGE_SIZE = 100;

export async function readOutbox(input: { after?: string | null; limit?: number; client?: Db }) {
  const client = input.client ?? defaultDb();
  const limit = Math.min(Math.max(input.limit ?? OUTBOX_PAGE_SIZE, 1), OUTBOX_PAGE_SIZE);
  // A withdrawn reply (its refund failed before it was sent) is not listed; the cursor may still name
  // one, since its row stays.
  let where: Prisma.OutboxMessageWhereInput = { NOT: { delivery: { state: "withdrawn" } } };
  if (input.after) {
    const last = await client.outboxMessage.findUnique({ where: { id: input.after }, select: { createdAt: true, id: true } });
    if (!last) return null;
    where = { ...where, OR: [{ createdAt: { gt: last.createdAt } }, { createdAt: last.createdAt, id: { gt: last.id } }] };
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
