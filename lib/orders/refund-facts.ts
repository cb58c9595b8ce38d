// What an order still allows to be refunded: its amount less every refund written to the ledger for
// it. The one definition, asked by the agent's lookup_order and propose_refund, the ticket page, the
// decision rules and the executor. The SQL twin is the same sum; the executor's write
// (countersign_write_refund) takes it again under the order's row lock, where only it may decide.
import { Prisma } from "../db";

/** The refunds written for an order so far, in cents, as a scalar subquery on an order id. */
export function refundedCentsSql(orderId: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(SELECT coalesce(sum(l."amountCents"), 0) FROM "LedgerEntry" l WHERE l."orderId" = ${orderId})`;
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
