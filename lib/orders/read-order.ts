// An order as the app's tables hold it – its customer, and every refund made on it so far (ours and
// those its source reported) – read in one statement or inside a larger one. Whatever the order
// source, the tables are what the agent, the refund facts and the executor read: the shop's source
// writes what it read from the shop into them first (order-source.ts).
import { Prisma, type Db, type DbTx } from "../db";
import { refundedCentsSql } from "./refund-facts";

/** An order with its customer and what has been refunded on it so far (`refundedCents`: ours and elsewhere's). */
export interface TOrderRow {
  id: string;
  item: string;
  category: string;
  amountCents: number;
  currency: string;
  deliveredAt: string | null;
  refundedCents: number;
  customerName: string;
  customerFlagged: boolean;
  /** To hold the order to a ticket's customer; never part of what the agent observes. */
  customerEmail: string;
}

/**
 * The order a reference names, as a scalar subquery for a larger statement: a TOrderRow as JSON, or
 * NULL. Order ids are matched case-insensitively, as customers type them, by an exact comparison on
 * upper(id) (indexed: "Order_upper_id_idx"); an order whose id matches exactly wins over one that
 * differs only in case.
 */
export function orderRowSql(ref: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(
    SELECT json_build_object(
             'id', o.id, 'item', o.item, 'category', o.category, 'amountCents', o."amountCents", 'currency', o.currency,
             'deliveredAt', to_char(o."deliveredAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             'refundedCents', ${refundedCentsSql(Prisma.raw("o.id"))},
             'customerName', c.name, 'customerFlagged', c.flagged, 'customerEmail', c.email)
    FROM "Order" o JOIN "Customer" c ON c.id = o."customerId"
    WHERE upper(o.id) = upper(${ref})
    ORDER BY o.id = ${ref} DESC, o.id
    LIMIT 1)`;
}

/** The order an id names (case-insensitive, surrounding spaces ignored), in one statement. */
export async function readOrder(client: Db | DbTx, orderId: string): Promise<TOrderRow | null> {
  const rows = await client.$queryRaw<{ order: TOrderRow | null }[]>`SELECT ${orderRowSql(Prisma.sql`${orderId.trim()}`)} AS "order"`;
  return rows[0]?.order ?? null;
}
