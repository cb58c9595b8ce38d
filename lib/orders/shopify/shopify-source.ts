// Orders read from a Shopify shop at run time (ORDER_SOURCE=shopify). A lookup maps the ticket's
// reference to the shop's order ("#1002", "1002", gid://shopify/Order/…), reads it through the Admin
// GraphQL API unless the app's copy is younger than the cache window, and writes what it read into
// the app's tables – the order (its id the shop's order name, "#1002"), its customer, and the refunds
// made in the shop – with an audit event, in one transaction. The agent, the refund facts and the
// executor then read the tables as for any other order; the executor asks freshRead first.
//
// Refunds the app itself makes through the shop carry a note beginning with REFUND_NOTE_PREFIX: they
// are in the ledger already and are not counted again as made elsewhere.
import type { Db, DbTx } from "../../db";
import { recordAuditEvent } from "../../audit/record-audit-event";
import { readOrder, type TOrderRow } from "../read-order";
import { recordExternalRefunds, upsertCustomer, upsertOrder } from "../order-store";
import type { TOrderSource } from "../order-source";
import { shopifyGraphql, type TShopifyConfig } from "./admin-client";
import { ORDER_BY_ID, ORDERS_BY_NAME, toOrderFacts, type TShopifyOrder } from "./shop-order";

/** The note the app puts on a refund it makes through the shop (refundCreate): `countersign:<idempotency key>`. */
export const REFUND_NOTE_PREFIX = "countersign:";
export function countersignRefundNote(idempotencyKey: string): string {
  return `${REFUND_NOTE_PREFIX}${idempotencyKey}`;
}

/** How a ticket's order reference names a shop order: by its gid, or by its name (#1002). */
export function shopOrderQuery(ref: string): { id: string } | { name: string } | null {
  const trimmed = ref.trim();
  if (/^gid:\/\/shopify\/Order\/\d{1,20}$/.test(trimmed)) return { id: trimmed };
  const name = /^#?([A-Za-z0-9-]{1,40})$/.exec(trimmed);
  return name ? { name: `#${name[1]}` } : null;
}

async function fetchShopOrder(config: TShopifyConfig, ref: string): Promise<TShopifyOrder | null> {
  const query = shopOrderQuery(ref);
  if (!query) return null;
  if ("id" in query) return (await shopifyGraphql<{ order: TShopifyOrder | null }>(config, ORDER_BY_ID, query)).order;
  // Shopify's search syntax: the name quoted, so that "#1002" is one term.
  const found = await shopifyGraphql<{ orders: { nodes: TShopifyOrder[] } }>(config, ORDERS_BY_NAME, {
    query: `name:"${query.name}"`,
  });
  return found.orders.nodes.find((o) => o.name.toUpperCase() === query.name.toUpperCase()) ?? null;
}

/** Writes what the shop said about an order into the tables, with its audit event; the order's id there. */
async function recordShopOrder(tx: DbTx, shop: TShopifyOrder, readAt: Date): Promise<string> {
  const facts = toOrderFacts(shop, REFUND_NOTE_PREFIX);
  // The shop's customer is the app's customer of the same email, if there is one already.
  const sameEmail = await tx.customer.findUnique({ where: { email: facts.customer.email }, select: { id: true } });
  const customerId = sameEmail?.id ?? facts.customer.id;
  await upsertCustomer(tx, { ...facts.customer, id: customerId });
  await upsertOrder(tx, { ...facts.order, customerId, sourceReadAt: readAt });
  const refunds = await recordExternalRefunds(tx, facts.order.id, facts.refunds);
  await recordAuditEvent(tx, {
    actorType: "system",
    action: "order.synced",
    subjectType: "order",
    subjectId: facts.order.id,
    inputs: { orderId: facts.order.id, source: "shopify", shopOrderId: shop.id, newRefunds: refunds.recorded.length },
  });
  return facts.order.id;
}

/**
 * In a transaction of its own, or in the caller's: a transaction client has `$transaction` too (a
 * nested one, a savepoint, which PGlite's adapter does not support), but no `$connect`.
 */
function inTransaction<T>(client: Db | DbTx, fn: (tx: DbTx) => Promise<T>): Promise<T> {
  return "$connect" in client ? client.$transaction(fn) : fn(client);
}

export function shopifyOrderSource(config: TShopifyConfig & { cacheSeconds: number }): TOrderSource {
  /** Reads the shop and records the order; its row, or null when the shop has no such order. */
  async function readThrough(client: Db | DbTx, ref: string): Promise<TOrderRow | null> {
    const readAt = new Date();
    const shop = await fetchShopOrder(config, ref);
    if (!shop) return null;
    const id = await inTransaction(client, (tx) => recordShopOrder(tx, shop, readAt));
    return readOrder(client, id);
  }

  return {
    kind: "shopify",
    async lookupOrder(client, ref) {
      const query = shopOrderQuery(ref);
      if (!query) return null;
      if ("name" in query) {
        const copy = await client.order.findUnique({ where: { id: query.name }, select: { sourceReadAt: true } });
        const fresh = copy?.sourceReadAt && Date.now() - copy.sourceReadAt.getTime() < config.cacheSeconds * 1000;
        if (fresh) return readOrder(client, query.name);
      }
      return readThrough(client, ref);
    },
    freshRead: (client, orderId) => readThrough(client, orderId),
  };
}
