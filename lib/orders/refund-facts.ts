// The refund facts, each defined once. What an order still allows to be refunded: its amount less
// every refund written to the ledger for it and every refund its source reports as made elsewhere – asked by the agent's lookup_order and propose_refund, the
// ticket page, the decision rules and the executor (whose write, countersign_write_refund, sums it
// again under the order's row lock, where only it may decide). And what the refund policy counts for
// a new proposal – the customer's proposals today and the day's auto-approved total – under the locks
// that make those counts hold when runs race.
import { Prisma, sqlRows } from "../db";
import type { TSqlTx } from "../db/driver";

/**
 * The refunds our ledger has written for an order, in cents, as a scalar subquery on an order id. A
 * refund the payment provider reported failed or canceled moved no money and does not count; one
 * still requested or pending does.
 */
function ledgerRefundedCentsSql(orderId: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(SELECT coalesce(sum(l."amountCents"), 0) FROM "LedgerEntry" l WHERE l."orderId" = ${orderId} AND l."state" NOT IN ('failed', 'canceled'))`;
}

/** The refunds the order source reports as made outside the app (ExternalRefund), in cents. */
function externalRefundedCentsSql(orderId: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(SELECT coalesce(sum(x."amountCents"), 0) FROM "ExternalRefund" x WHERE x."orderId" = ${orderId})`;
}

/**
 * The refunds made on an order so far, in cents, as a scalar subquery on an order id: ours (the
 * ledger's) and those made outside the app that its source reported. The executor's write
 * (countersign_write_refund, migration 20261128200000) sums the same two parts under the order's lock.
 */
export function refundedCentsSql(orderId: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(${ledgerRefundedCentsSql(orderId)} + ${externalRefundedCentsSql(orderId)})`;
}

/** The same, for statements written as text: `orderColumn` is the SQL naming the order's id. */
export function refundedCentsText(orderColumn: string): string {
  return refundedCentsSql(Prisma.raw(orderColumn)).text;
}

/** What remains refundable on an order of `amountCents` with `refundedCents` refunded: never below zero. */
export function stillRefundableCents(order: { amountCents: number }, refundedCents: number): number {
  return Math.max(0, order.amountCents - refundedCents);
}

/** Whether a refund of `amountCents` fits what the order still allows. */
export function fitsRefundable(amountCents: number, order: { amountCents: number }, refundedCents: number): boolean {
  return amountCents <= stillRefundableCents(order, refundedCents);
}

export interface TProposalCounts {
  /** Whether the order is the ticket's customer's (emails compared case-insensitively); null: no such order. */
  ownOrder: boolean | null;
  /** Live refund proposals today for the order's customer, before this one. */
  customerProposalsToday: number;
  /** Refunds auto-approved today across all customers (0 when `weighsDayTotal` is false). */
  autoApprovedTodayCents: number;
}

/**
 * What the refund policy counts for a proposal on `orderId`, in the caller's transaction: in live
 * mode under the locks that make the counts hold – the order's customer's (whoever wrote the ticket:
 * keyed on the customer the order belongs to, never on the ticket's email, which anyone can choose)
 * and, for a proposal that may auto-approve, the day's cap – always in that order, in one statement;
 * then the counts in a statement of their own, whose snapshot has every proposal committed while the
 * locks were waited for. Two round trips in live mode, one in simulate.
 */
export async function countProposalFacts(
  tx: TSqlTx,
  input: { orderId: string; ticketEmail: string; live: boolean; mayAutoApprove: boolean; weighsDayTotal: boolean; now?: Date },
): Promise<TProposalCounts> {
  const startOfDay = new Date(input.now ?? Date.now());
  startOfDay.setUTCHours(0, 0, 0, 0);
  const customerOfOrder = Prisma.sql`(SELECT "customerId" FROM "Order" WHERE id = ${input.orderId})`;
  const locks = [
    Prisma.sql`pg_advisory_xact_lock(hashtext('refund-proposals:' || ${customerOfOrder}))`,
    ...(input.mayAutoApprove
      ? [Prisma.sql`pg_advisory_xact_lock(hashtext(${`auto-approve-cap:${startOfDay.toISOString().slice(0, 10)}`}))`]
      : []),
  ];
  if (input.live) await sqlRows(tx, Prisma.sql`SELECT ${Prisma.join(locks)}`);
  // createdAt is a UTC timestamp without time zone: compared with a UTC timestamp, never with a
  // timestamptz the session's time zone would shift.
  const since = startOfDay.toISOString().slice(0, 23).replace("T", " ");
  const dayTotal = input.weighsDayTotal
    ? Prisma.sql`(SELECT coalesce(sum("amountCents"), 0)::float8 FROM "RefundProposal" WHERE decision = 'auto_approved' AND NOT simulated AND "createdAt" >= ${since}::timestamp)`
    : Prisma.sql`0::float8`;
  const [row] = await sqlRows<{ ownOrder: string | null; customer: string; autoApproved: string }>(
    tx,
    Prisma.sql`
    SELECT (SELECT (lower(trim(c.email)) = lower(trim(${input.ticketEmail})))::int
              FROM "Order" o JOIN "Customer" c ON c.id = o."customerId" WHERE o.id = ${input.orderId}) AS "ownOrder",
           (SELECT count(*)::int FROM "RefundProposal" p JOIN "Order" o ON o.id = p."orderId"
             WHERE o."customerId" = ${customerOfOrder} AND NOT p.simulated AND p."createdAt" >= ${since}::timestamp) AS customer,
           ${dayTotal} AS "autoApproved"`,
  );
  return {
    ownOrder: row!.ownOrder === null ? null : row!.ownOrder === "1",
    customerProposalsToday: Number(row!.customer),
    autoApprovedTodayCents: Number(row!.autoApproved),
  };
}
