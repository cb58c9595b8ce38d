// What a reviewer should know before deciding, beside the decision: the customer's earlier tickets and
// how each was decided, and the refunds already made on this ticket's order with what remains
// refundable. A fixed number of queries whatever the history: earlier tickets are found by the
// customer's email (any case) or by any order of theirs, through indexes, newest first.
import type { Db } from "../db";
import { db as defaultDb, Prisma } from "../db";
import { refundedCentsSql, stillRefundableCents } from "../orders/refund-facts";

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

type TEarlier = TCustomerHistory["earlier"][number];
type TOrderIn = { id: string; amountCents: number; currency: string; customerId: string };

export async function loadCustomerHistory(input: {
  ticket: { id: string; customerEmail: string };
  order: TOrderIn | null;
  client?: Db;
}): Promise<TCustomerHistory> {
  const client = input.client ?? defaultDb();
  const email = input.ticket.customerEmail.trim().toLowerCase();
  const customer = await findCustomer(client, email, input.order);
  const emails = [...new Set([email, ...(customer ? [customer.email] : [])])];
  const [earlierIds, refunds] = await Promise.all([
    findEarlierTickets(client, { ticketId: input.ticket.id, emails, customerId: customer?.id ?? null }),
    input.order ? refundsOn(client, input.order) : null,
  ]);
  return {
    earlier: await loadEarlierTickets(client, earlierIds),
    earlierCount: Number(earlierIds[0]?.total ?? 0),
    order:
      input.order && refunds
        ? { id: input.order.id, amountCents: input.order.amountCents, currency: input.order.currency, ...refunds }
        : null,
  };
}

/** The customer: the order's, else the one whose email the ticket came from. */
async function findCustomer(client: Db, email: string, order: TOrderIn | null): Promise<{ id: string; email: string } | undefined> {
  const [customer] = order
    ? await client.$queryRaw<
        { id: string; email: string }[]
      >`SELECT id, lower(email) AS email FROM "Customer" WHERE id = ${order.customerId}`
    : await client.$queryRaw<
        { id: string; email: string }[]
      >`SELECT id, lower(email) AS email FROM "Customer" WHERE lower(email) = ${email} LIMIT 1`;
  return customer;
}

/**
 * The customer's other tickets, newest first, with how many there are: those from any of their
 * addresses and those about any order of theirs.
 */
function findEarlierTickets(client: Db, who: { ticketId: string; emails: string[]; customerId: string | null }) {
  return client.$queryRaw<{ id: string; total: bigint }[]>`
    WITH theirs AS (
      SELECT t.id, t."createdAt" FROM "Ticket" t WHERE lower(t."customerEmail") = ANY(${who.emails}::text[]) AND t.id <> ${who.ticketId}::uuid
      UNION
      SELECT t.id, t."createdAt" FROM "Ticket" t JOIN "Order" o ON o.id = t."orderRef"
      WHERE o."customerId" = ${who.customerId} AND t.id <> ${who.ticketId}::uuid
    )
    SELECT id::text, count(*) OVER () AS total FROM theirs ORDER BY "createdAt" DESC, id DESC LIMIT ${EARLIER_TICKETS_SHOWN}`;
}

/**
 * The refunds written for the order, oldest first, and what they leave refundable – the total as
 * refund-facts defines it, read in the same statement as the list so the two always agree.
 */
async function refundsOn(
  client: Db,
  order: TOrderIn,
): Promise<Pick<NonNullable<TCustomerHistory["order"]>, "refundedCents" | "remainingCents" | "refunds">> {
  const rows = await client.$queryRaw<
    { refundedCents: string; id: string | null; amountCents: number | null; createdAt: Date | null; ticketNumber: number | null }[]
  >`
    SELECT f."refundedCents"::text AS "refundedCents", l.id::text AS id, l."amountCents", l."createdAt", t.number AS "ticketNumber"
    FROM (SELECT ${refundedCentsSql(Prisma.sql`${order.id}`)} AS "refundedCents") f
    LEFT JOIN "LedgerEntry" l ON l."orderId" = ${order.id}
    LEFT JOIN "ApprovalRequest" a ON a.id = l."approvalRequestId"
    LEFT JOIN "Ticket" t ON t.id = a."ticketId"
    ORDER BY l."createdAt" ASC, l.id ASC`;
  const refundedCents = Number(rows[0]!.refundedCents);
  return {
    refundedCents,
    remainingCents: stillRefundableCents(order, refundedCents),
    refunds: rows.flatMap((r) =>
      r.id === null ? [] : [{ id: r.id, amountCents: r.amountCents!, createdAt: r.createdAt!, ticketNumber: r.ticketNumber }],
    ),
  };
}

/** The earlier tickets, each with its latest approval request's outcome. */
async function loadEarlierTickets(client: Db, earlierIds: { id: string }[]): Promise<TEarlier[]> {
  if (!earlierIds.length) return [];
  const tickets = await client.ticket.findMany({
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
  });
  return tickets.map(({ approvals, ...t }) => ({ ...t, outcome: approvals[0] ? outcomeOf(approvals[0]) : null }));
}

/** What was decided on a request, by whom, for how much. */
function outcomeOf(a: {
  kind: string;
  status: string;
  proposal: { amountCents: number; currency: string } | null;
  decisions: { automatic: boolean; decider: { name: string } | null }[];
}): NonNullable<TEarlier["outcome"]> {
  return {
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
  };
}
