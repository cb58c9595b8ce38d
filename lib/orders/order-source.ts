// Where an installation's orders come from (ORDER_SOURCE): one interface the agent's lookup_order, the
// refund facts and the executor's checks read an order through – its customer, and the refunds made on
// it so far, ours and elsewhere's.
//
// - `internal` (the default, the demo's): the app's own tables are the source, fed by the orders API
//   (receive-orders.ts) or the seed. A lookup is one statement on them, or none when the run's first
//   statement already read the ticket's order.
// - `shopify`: the shop is the source. A lookup reads the order from the Shopify Admin API unless the
//   app's copy was read within SHOPIFY_CACHE_SECONDS, and writes what it read into the tables (order,
//   customer, the refunds made in the shop): the refund facts and the executor's locked sum then count
//   them with the ledger's. The copy is never trusted for what may still be refunded at execution:
//   `freshRead` reads the shop again whatever the cache says.
import type { Db, DbTx } from "../db";
import { env } from "../env";
import { readOrder, type TOrderRow } from "./read-order";
import { shopifyOrderSource } from "./shopify/shopify-source";

export type TOrderSourceKind = "internal" | "shopify";

export interface TOrderSource {
  readonly kind: TOrderSourceKind;
  /**
   * The order `ref` names (an id as a ticket gives it: case and surrounding spaces ignored; for the
   * shop also "#1002", "1002" or gid://shopify/Order/…), or null. `known`: the run's first statement's
   * read of the ticket's order reference, used as it is when it names the same reference and the
   * source's tables are the truth.
   */
  lookupOrder(client: Db, ref: string, known?: { ref: string; row: TOrderRow | null }): Promise<TOrderRow | null>;
  /**
   * The order read from its source now, whatever any cache says, and written to the tables with the
   * refunds the source reports; null when the source has no such order. For the executor, before it
   * decides (under the order's lock, countersign_write_refund) whether a refund still fits – see
   * freshReadUnderLock, which the refund job calls: nothing is executed when it throws (the shop could
   * not be read: the job is retried), and the refund is refused when it answers null.
   */
  freshRead(client: Db | DbTx, orderId: string): Promise<TOrderRow | null>;
}

/** The app's own tables: fed by the orders API and the seed. */
export const internalOrderSource: TOrderSource = {
  kind: "internal",
  async lookupOrder(client, ref, known) {
    return known && ref.trim() === known.ref ? known.row : readOrder(client, ref);
  },
  freshRead: (client, orderId) => readOrder(client, orderId),
};

const g = globalThis as unknown as { __countersignOrderSource?: TOrderSource };

/** The installation's order source (ORDER_SOURCE; `internal` with no setting). */
export function orderSource(): TOrderSource {
  if (g.__countersignOrderSource) return g.__countersignOrderSource;
  const e = env();
  g.__countersignOrderSource =
    e.ORDER_SOURCE === "shopify"
      ? shopifyOrderSource({
          shopUrl: e.SHOPIFY_SHOP_URL!,
          accessToken: e.SHOPIFY_ACCESS_TOKEN!,
          apiVersion: e.SHOPIFY_API_VERSION,
          cacheSeconds: e.SHOPIFY_CACHE_SECONDS,
        })
      : internalOrderSource;
  return g.__countersignOrderSource;
}

/**
 * The executor's fresh read, in its transaction: the order's row lock first – the lock the ledger's
 * write (countersign_write_refund) takes to sum what the order still allows, so no other refund of
 * the order is decided meanwhile – then the order read from its source again and written with the
 * refunds the source reports. False when the source no longer has the order; throws when it could not
 * be read. The internal source reads its own tables: nothing to do.
 */
export async function freshReadUnderLock(tx: DbTx, orderId: string, source: TOrderSource = orderSource()): Promise<boolean> {
  if (source.kind === "internal") return true;
  await tx.$queryRaw`SELECT 1 FROM "Order" WHERE "id" = ${orderId} FOR UPDATE`;
  return (await source.freshRead(tx, orderId)) !== null;
}

/** Replaces the installation's order source (tests; null: read the settings again). */
export function useOrderSource(source: TOrderSource | null): void {
  g.__countersignOrderSource = source ?? undefined;
}
