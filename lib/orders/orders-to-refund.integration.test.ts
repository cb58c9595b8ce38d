// An order from the team's own systems, end to end: pushed through the orders API (or read from the
// shop), found by a ticket's run, proposed, approved and refunded – and a refund made outside the app
// lowering what the agent may propose, and stopping the executor when it arrives after the approval.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { webhookHeaders } from "../../testing/intake";
import { customerBody, orderBody } from "../../testing/orders";
import { drainQueue } from "../../testing/queue";
import { approvalFor, tabletTicket, user } from "../../testing/runs";
import { startFakeShopify, type TFakeShopify } from "../../testing/fake-shopify/server";
import { seedDemo } from "../../prisma/seed/demo";
import { decideApproval } from "../approvals/decide-approval";
import { receiveOrders } from "./receive-orders";
import { useOrderSource } from "./order-source";
import { shopifyOrderSource } from "./shopify/shopify-source";

const testDb = useTestDb(seedDemo);
const SECRET = "orders-e2e-secret-0123456789abcdef012345";

async function put(resource: "order" | "customer", id: string, body: unknown) {
  const raw = JSON.stringify(body);
  const answer = await receiveOrders(
    { resource, id, rawBody: Buffer.from(raw), headers: new Headers(webhookHeaders(raw, SECRET)), address: null },
    { secrets: [SECRET], toleranceSeconds: 300 },
  );
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  return answer;
}

/** A customer and their tablet order, pushed through the orders API; what a ticket about it needs. */
async function pushedOrder(n: number, refunds: unknown[] = []) {
  const customerId = `CUS-PUSH-${n}`;
  await put("customer", customerId, customerBody(`push-${n}`));
  await put("order", `ORD-PUSH-${n}`, orderBody(customerId, { refunds }));
  return { email: `shopper-push-${n}@example.net`, orderId: `ORD-PUSH-${n}` };
}

const shopRefund = (id: string, amountCents: number) => ({ id, amountCents, at: new Date().toISOString(), source: "shop" });

describe("an order pushed through the orders API", () => {
  it("is found by a ticket's run, proposed in full, approved and refunded once", async () => {
    const { client } = testDb();
    const world = await pushedOrder(1);
    const request = await approvalFor(client, await tabletTicket(client, world));
    const proposal = await client.refundProposal.findFirstOrThrow({ where: { orderId: world.orderId } });
    expect(proposal.amountCents).toBe(7_900);
    await decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, actor: await user(client, "REVIEWER") });
    await drainQueue(testDb());
    expect(await client.ledgerEntry.findMany({ where: { orderId: world.orderId } })).toMatchObject([{ amountCents: 7_900 }]);
  });

  it("refunded partly in the shop: the agent proposes only what is left", async () => {
    const { client } = testDb();
    const world = await pushedOrder(2, [shopRefund("shop-2", 3_000)]);
    await approvalFor(client, await tabletTicket(client, world));
    const proposal = await client.refundProposal.findFirstOrThrow({ where: { orderId: world.orderId } });
    expect(proposal.amountCents).toBe(4_900);
  });

  it("refunded in the shop after the approval: the executor refuses what no longer fits, and writes nothing", async () => {
    const { client } = testDb();
    const world = await pushedOrder(3);
    const request = await approvalFor(client, await tabletTicket(client, world));
    await decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, actor: await user(client, "REVIEWER") });
    // The shop refunds part of it before the refund job runs; its system reports it.
    await put("order", world.orderId, orderBody("CUS-PUSH-3", { refunds: [shopRefund("shop-3", 1_000)] }));
    await drainQueue(testDb());
    expect(await client.ledgerEntry.count({ where: { orderId: world.orderId } })).toBe(0);
    expect(await client.auditEvent.count({ where: { action: "refund.blocked_exceeds_refundable", subjectId: request.id } })).toBe(1);
  });
});

describe("an order read from a Shopify shop", () => {
  let shop: TFakeShopify;
  beforeAll(async () => {
    shop = await startFakeShopify();
  });
  afterAll(() => shop?.close());
  afterEach(() => useOrderSource(null));

  function useShop(cacheSeconds = 60) {
    useOrderSource(shopifyOrderSource({ shopUrl: shop.url, accessToken: shop.accessToken, apiVersion: "2026-04", cacheSeconds }));
  }

  function shopOrder(n: number) {
    const customer = shop.addCustomer({ displayName: `Shop Buyer ${n}`, email: `shop-buyer-${n}@example.net` });
    const order = shop.addOrder({
      name: `#${5000 + n}`,
      customerId: customer.id,
      totalCents: 7_900,
      title: "Aurora 10-inch tablet",
      productType: "Electronics",
      deliveredAt: new Date(Date.now() - 12 * 86_400_000).toISOString(),
    });
    return { order, world: { email: customer.email!, orderId: order.name } };
  }

  it("refunded partly in the shop outside the app: the agent proposes only what is left", async () => {
    const { client } = testDb();
    useShop();
    const { order, world } = shopOrder(1);
    shop.refundInShop(order.id, 2_900, "returned the case");
    await approvalFor(client, await tabletTicket(client, world));
    const proposal = await client.refundProposal.findFirstOrThrow({ where: { orderId: order.name } });
    expect(proposal.amountCents).toBe(5_000);
    expect(await client.externalRefund.findMany({ where: { orderId: order.name } })).toMatchObject([
      { amountCents: 2_900, source: "shopify" },
    ]);
    expect(await client.auditEvent.count({ where: { action: "order.synced", subjectId: order.name } })).toBe(1);
  });

  it("reads the shop within the cache window once, and freshRead reads it again whatever the cache says", async () => {
    const { client } = testDb();
    useShop(600);
    const { order } = shopOrder(2);
    const source = shopifyOrderSource({ shopUrl: shop.url, accessToken: shop.accessToken, apiVersion: "2026-04", cacheSeconds: 600 });
    const before = shop.requests.get("CountersignOrderByName") ?? 0;
    expect(await source.lookupOrder(client, "5002")).toMatchObject({ id: "#5002", refundedCents: 0 });
    shop.refundInShop(order.id, 1_500);
    // Cached: the lookup does not see the new refund, and asks nothing.
    expect(await source.lookupOrder(client, "#5002")).toMatchObject({ refundedCents: 0 });
    expect((shop.requests.get("CountersignOrderByName") ?? 0) - before).toBe(1);
    expect(await source.freshRead(client, "#5002")).toMatchObject({ refundedCents: 1_500 });
    // Its own refunds (noted countersign:…) are the ledger's, not counted again as the shop's.
    shop.refundInShop(order.id, 1_000, "countersign:refund:abc");
    expect(await source.freshRead(client, order.id)).toMatchObject({ refundedCents: 1_500 });
  });

  it("a shop that fails to answer fails the read: nothing is recorded", async () => {
    const { client } = testDb();
    const { order } = shopOrder(3);
    const source = shopifyOrderSource({ shopUrl: shop.url, accessToken: shop.accessToken, apiVersion: "2026-04", cacheSeconds: 0 });
    shop.failNext("500");
    await expect(source.freshRead(client, order.name)).rejects.toThrow(/500/);
    const wrongToken = shopifyOrderSource({ shopUrl: shop.url, accessToken: "wrong", apiVersion: "2026-04", cacheSeconds: 0 });
    await expect(wrongToken.freshRead(client, order.name)).rejects.toThrow(/401/);
    expect(await client.order.findUnique({ where: { id: order.name } })).toBeNull();
  });
});
