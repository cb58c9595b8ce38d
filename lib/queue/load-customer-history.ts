// What a reviewer should know before deciding, beside the decision: the customer's earlier tickets and
// how each was decided, and the refunds already made on this ticket's order with what remains
// refundable. A fixed number of queries whatever the history: earlier tickets are found by the
// customer's email (any case) or by any order of theirs, through indexes, newest first.
import type { Db } from "../db";
import { db as defaultDb } from "../db";
import { stillRefundableCents } from "../orders/refund-facts";

export const EARLIER_TICKETS_SHOWN = 10;

export interface TCustomerHistory {
  earlier: {
    id: string;
    number: number;
    subject: string;
    status: string;
    createdAt: Date;
    /** The latest approval request's outcome, if any: what was decided, by whom, for how much. */
    outcome: {
      kind: string;
      status: string;
      amountCents: number | null;
      currency: string | null;
      decidedBy: string | null;
      automatic: boolean;
    } | null;
  }[];
  earlierCount: number;
  /** Refunds on this ticket's order (when it names one that exists). */
  order: {
    id: string;
    amountCents: number;
    currency: string;
    refundedCents: number;
    remainingCents: number;
    refunds: { id: string; amountCents: number; createdAt: Date; ticketNumber: number | null }[];
  } | null;
}

export async function loadCustomerHistory(input: {
  ticket: { id: string; customerEmail: string };
  order: { id: string; amountCents: number; currency: string; customerId: string } | null;
  client?: Db;
}): Promise<TCustomerHistory> {
  const client = input.client ?? defaultDb();
  const email = input.ticket.customerEmail.trim().toLowerCase();
  // The customer: the order's, else the one whose email the ticket came from. Their tickets are those
  // from this address or theirs, and those about any order of theirs.
  const [customer] = input.order
    ? await client.$queryRaw<
        { id: string; email: string }[]
      >`SELECT id, lower(email) AS email FROM "Customer" WHERE id = ${input.order.customerId}`
    : await client.$queryRaw<
        { id: string; email: string }[]
      >`SELECT id, lower(email) AS email FROM "Customer" WHERE lower(email) = ${email} LIMIT 1`;
  const emails = [...new Set([email, ...(customer ? [customer.email] : [])])];
  const [earlierIds, refunds] = await Promise.all([
    client.$queryRaw<{ id: string; total: bigint }[]>`
      WITH theirs AS (
        SELECT t.id, t."createdAt" FROM "Ticket" t WHERE lower(t."customerEmail") = ANY(${emails}::text[]) AND t.id <> ${input.ticket.id}::uuid
        UNION
        SELECT t.id, t."createdAt" FROM "Ticket" t JOIN "Order" o ON o.id = t."orderRef"
        WHERE o."customerId" = ${customer?.id ?? null} AND t.id <> ${input.ticket.id}::uuid
      )
      SELECT id::text, count(*) OVER () AS total FROM theirs ORDER BY "createdAt" DESC, id DESC LIMIT ${EARLIER_TICKETS_SHOWN}`,
    input.order
      ? client.ledgerEntry.findMany({
          where: { orderId: input.order.id },
          orderBy: { createdAt: "asc" },
          select: { id: true, amountCents: true, createdAt: true, approvalRequest: { select: { ticket: { select: { number: true } } } } },
        })
      : [],
  ]);
  const tickets = earlierIds.length
    ? await client.ticket.findMany({
        where: { id: { in: earlierIds.map((r) => r.id) } },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        select: {
          id: true,
          number: true,
          subject: true,
          status: true,
          createdAt: true,
          approvals: {
            orderBy: { createdAt: "desc" },
            take: 1,
            select: {
              kind: true,
              status: true,
              proposal: { select: { amountCents: true, currency: true } },
              decisions: { orderBy: { seat: "asc" }, select: { automatic: true, decider: { select: { name: true } } } },
            },
          },
        },
      })
    : [];
  const refundedCents = refunds.reduce((sum, r) => sum + r.amountCents, 0);
  return {
    earlier: tickets.map(({ approvals, ...t }) => {
      const a = approvals[0];
      return {
        ...t,
        outcome: a
          ? {
              kind: a.kind,
              status: a.status,
              amountCents: a.proposal?.amountCents ?? null,
              currency: a.proposal?.currency ?? null,
              decidedBy:
                a.decisions
                  .map((d) => d.decider?.name)
                  .filter(Boolean)
                  .join(" and ") || null,
              automatic: a.decisions[0]?.automatic ?? false,
            }
          : null,
      };
    }),
    earlierCount: Number(earlierIds[0]?.total ?? 0),
    order: input.order
      ? {
          id: input.order.id,
          amountCents: input.order.amountCents,
          currency: input.order.currency,
          refundedCents,
          remainingCents: stillRefundableCents(input.order, refundedCents),
          refunds: refunds.map((r) => ({
            id: r.id,
            amountCents: r.amountCents,
            createdAt: r.createdAt,
            ticketNumber: r.approvalRequest?.ticket.number ?? null,
          })),
        }
      : null,
  };
}
