// Approved refunds executed in a Shopify shop exactly once (refundCreate with @idempotent and the
// approval's derived key), the shop also being the order source: the fake Admin GraphQL endpoint
// (testing/fake-shopify) over real HTTP, the shop's side counted there. And the executor's fresh read:
// a refund made in the shop after the approval is counted before anything is refunded.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { startFakeShopify, type TFakeShopify } from "../../testing/fake-shopify/server";
import { approvalFor, tabletTicket, user } from "../../testing/runs";
import { killHard, spawnTs } from "../../testing/spawn-ts";
import { seedDemo } from "../../prisma/seed/demo";
import { useOrderSource } from "../orders/order-source";
import { countersignRefundNote, shopifyOrderSource } from "../orders/shopify/shopify-source";
import { shopifyProvider } from "../payments/shopify-provider";
import type { TRefundProvider } from "../payments/refund-provider";
import { decideApproval } from "./decide-approval";
import { reconcileProviderRefunds } from "./reconcile-refunds";
import { settleApprovedRefund } from "./settle-refund";

const testDb = useTestDb(seedDemo);
let shop: TFakeShopify;
let provider: TRefundProvider;
let n = 0;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const REFUND_CREATE = "CountersignRefundCreate";

beforeAll(async () => {
  shop = await startFakeShopify();
  provider = shopifyProvider({ shopUrl: shop.url, accessToken: shop.accessToken, apiVersion: "2026-04" });
});
afterAll(() => shop?.close());
afterEach(() => {
  useOrderSource(null);
  shop.refundsStartAs("SUCCESS");
});

function useShop() {
  useOrderSource(shopifyOrderSource({ shopUrl: shop.url, accessToken: shop.accessToken, apiVersion: "2026-04", cacheSeconds: 60 }));
}

/** A 79 USD tablet order in the shop, found by a ticket's run, its full refund approved by a reviewer. */
async function approvedShopRefund() {
  const { client } = testDb();
  useShop();
  n += 1;
  const customer = shop.addCustomer({ displayName: `Shop Refund ${n}`, email: `shop-refund-${n}@example.net` });
  const order = shop.addOrder({
    name: `#${7000 + n}`,
    customerId: customer.id,
    totalCents: 7_900,
    title: "Aurora 10-inch tablet",
    productType: "Electronics",
    deliveredAt: new Date(Date.now() - 12 * 86_400_000).toISOString(),
  });
  const request = await approvalFor(client, await tabletTicket(client, { email: customer.email!, orderId: order.name }));
  const proposal = await client.refundProposal.findFirstOrThrow({ where: { orderId: order.name } });
  expect(proposal.amountCents).toBe(7_900);
  await decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, actor: await user(client, "REVIEWER") });
  return { request, order };
}

/** The shop's refunds of the order, and our side: the ledger rows, the ticket, the replies. */
async function sides(approval: { id: string; ticketId: string }, shopOrderId: string) {
  const { client } = testDb();
  return {
    inShop: shop.refundsOf(shopOrderId),
    rows: await client.ledgerEntry.findMany({
      where: { approvalRequestId: approval.id },
      select: { provider: true, state: true, providerRefundId: true, failureReason: true, idempotencyKey: true },
    }),
    ticket: await client.ticket.findUniqueOrThrow({ where: { id: approval.ticketId }, select: { status: true, reason: true } }),
    replies: await client.outboxMessage.count({ where: { approvalRequestId: approval.id } }),
    outcome: (await client.approvalRequest.findUniqueOrThrow({ where: { id: approval.id } })).executionOutcome,
  };
}

const created = () => shop.requests.get(REFUND_CREATE) ?? 0;

describe(`refunds in a Shopify shop (${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("refunds through refundCreate once, noted with the approval's key: the row succeeded with the shop's id, the reply released", async () => {
    const { request, order } = await approvedShopRefund();
    expect(await settleApprovedRefund({ approvalId: request.id, provider })).toMatchObject({
      outcome: "refund_created",
      refundState: "succeeded",
      replyReleased: true,
    });
    const after = await sides(request, order.id);
    expect(after.inShop).toHaveLength(1);
    expect(after.inShop[0]).toMatchObject({
      amountCents: 7_900,
      status: "SUCCESS",
      note: countersignRefundNote(after.rows[0]!.idempotencyKey),
    });
    expect(after.rows).toEqual([
      {
        provider: "shopify",
        state: "succeeded",
        providerRefundId: after.inShop[0]!.id,
        failureReason: null,
        idempotencyKey: expect.any(String),
      },
    ]);
    expect(after.ticket.status).toBe("resolved");
    expect(after.replies).toBe(1);

    // Run again (a retried job): nothing more in the shop or here; our own refund is not taken for the shop's.
    const calls = created();
    expect(await settleApprovedRefund({ approvalId: request.id, provider })).toMatchObject({ settledNow: false, refundState: "succeeded" });
    expect(created()).toBe(calls);
    expect((await sides(request, order.id)).inShop).toHaveLength(1);
    expect(await testDb().client.externalRefund.count({ where: { orderId: order.name } })).toBe(0);
  });

  it("retries a 500 with the same key: one refund", async () => {
    const { request, order } = await approvedShopRefund();
    shop.failNext("500", 1, 0, REFUND_CREATE);
    await expect(settleApprovedRefund({ approvalId: request.id, provider })).rejects.toThrow(/500/);
    const between = await sides(request, order.id);
    expect(between.inShop).toHaveLength(0);
    expect(between.rows.map((r) => r.state)).toEqual(["requested"]);
    expect(between.replies).toBe(0);
    expect(between.ticket.status).toBe("approved");

    expect(await settleApprovedRefund({ approvalId: request.id, provider })).toMatchObject({
      refundState: "succeeded",
      replyReleased: true,
    });
    expect((await sides(request, order.id)).inShop).toHaveLength(1);
  });

  it("an answer lost after the refund was made: the reconciliation finds it on the order by its key, and makes no second one", async () => {
    const { request, order } = await approvedShopRefund();
    shop.failNext("lost", 1, 0, REFUND_CREATE);
    await expect(settleApprovedRefund({ approvalId: request.id, provider })).rejects.toThrow();
    const between = await sides(request, order.id);
    expect(between.inShop).toHaveLength(1);
    expect(between.rows.map((r) => r.state)).toEqual(["requested"]);
    expect(between.replies).toBe(0);

    const calls = created();
    const reconciled = await reconcileProviderRefunds({ olderThanMs: 0, provider });
    expect(reconciled.failed).toEqual([]);
    // Found on the order by its note: refundCreate was not asked again.
    expect(created()).toBe(calls);
    const after = await sides(request, order.id);
    expect(after.inShop).toHaveLength(1);
    expect(after.rows).toMatchObject([{ state: "succeeded", providerRefundId: after.inShop[0]!.id }]);
    expect(after.ticket.status).toBe("resolved");
    expect(after.replies).toBe(1);
  });

  it("waits on a pending refund, and a refund the gateway then fails returns the ticket to a person with no reply", async () => {
    const { request, order } = await approvedShopRefund();
    shop.refundsStartAs("PENDING");
    expect(await settleApprovedRefund({ approvalId: request.id, provider })).toMatchObject({
      refundState: "pending",
      replyReleased: false,
    });
    const waiting = await sides(request, order.id);
    expect(waiting.rows).toMatchObject([{ state: "pending", providerRefundId: waiting.inShop[0]!.id }]);
    expect(waiting.ticket.status).toBe("approved");
    // Still pending at the shop: the reconciliation reads it and leaves it.
    await reconcileProviderRefunds({ olderThanMs: 0, provider });
    expect((await sides(request, order.id)).rows.map((r) => r.state)).toEqual(["pending"]);

    shop.settleRefund(waiting.inShop[0]!.id, "FAILURE", "CARD_DECLINED");
    await reconcileProviderRefunds({ olderThanMs: 0, provider });
    const after = await sides(request, order.id);
    expect(after.rows).toMatchObject([{ state: "failed", failureReason: "declined" }]);
    expect(after.ticket).toEqual({ status: "needs_human", reason: "refund_failed" });
    expect(after.replies).toBe(0);
  });

  it("a pending refund the gateway completes: succeeded on reconciliation, the reply released then", async () => {
    const { request, order } = await approvedShopRefund();
    shop.refundsStartAs("PENDING");
    await settleApprovedRefund({ approvalId: request.id, provider });
    shop.settleRefund(shop.refundsOf(order.id)[0]!.id, "SUCCESS");
    expect((await sides(request, order.id)).replies).toBe(0);
    await reconcileProviderRefunds({ olderThanMs: 0, provider });
    const after = await sides(request, order.id);
    expect(after.rows.map((r) => r.state)).toEqual(["succeeded"]);
    expect(after.ticket.status).toBe("resolved");
    expect(after.replies).toBe(1);
  });

  it("refunded partly in the shop after the approval: refused at execution, nothing refunded, the ticket back to a person", async () => {
    const { request, order } = await approvedShopRefund();
    // The shop's staff refund 10 USD of it in the Shopify admin before the refund job runs.
    shop.refundInShop(order.id, 1_000, "returned the case");
    const calls = created();
    expect(await settleApprovedRefund({ approvalId: request.id, provider })).toMatchObject({
      outcome: "blocked:exceeds_refundable",
      refundState: null,
      replyReleased: false,
    });
    const after = await sides(request, order.id);
    expect(created()).toBe(calls);
    expect(after.inShop.map((r) => r.amountCents)).toEqual([1_000]);
    expect(after.rows).toEqual([]);
    expect(after.ticket).toEqual({ status: "needs_human", reason: "refund_blocked" });
    expect(after.replies).toBe(0);
    const { client } = testDb();
    expect(await client.externalRefund.findMany({ where: { orderId: order.name }, select: { amountCents: true } })).toEqual([
      { amountCents: 1_000 },
    ]);
    expect(await client.auditEvent.count({ where: { action: "refund.blocked_exceeds_refundable", subjectId: request.id } })).toBe(1);
  });

  it("an order the shop no longer has is refused at execution; a shop that cannot be read decides nothing until it can", async () => {
    const gone = await approvedShopRefund();
    shop.deleteOrder(gone.order.id);
    expect(await settleApprovedRefund({ approvalId: gone.request.id, provider })).toMatchObject({ outcome: "blocked:order_unavailable" });
    const refused = await sides(gone.request, gone.order.id);
    expect(refused.rows).toEqual([]);
    expect(refused.ticket).toEqual({ status: "needs_human", reason: "refund_blocked" });

    const later = await approvedShopRefund();
    shop.failNext("500", 1, 0, "CountersignOrderByName");
    await expect(settleApprovedRefund({ approvalId: later.request.id, provider })).rejects.toThrow(/500/);
    const between = await sides(later.request, later.order.id);
    expect(between).toMatchObject({ inShop: [], rows: [], outcome: null, replies: 0 });
    expect(await settleApprovedRefund({ approvalId: later.request.id, provider })).toMatchObject({ refundState: "succeeded" });
    expect((await sides(later.request, later.order.id)).inShop).toHaveLength(1);
  });

  it("a shop that refuses the refund (more than the order has left there): failed with the shop's refusal, no reply", async () => {
    const { request, order } = await approvedShopRefund();
    // A refund the shop made that the order source does not count (noted as ours, yet in no ledger row):
    // the executor lets the refund through, the shop itself refuses it.
    shop.refundInShop(order.id, 5_000, countersignRefundNote("refund:elsewhere"));
    expect(await settleApprovedRefund({ approvalId: request.id, provider })).toMatchObject({ refundState: "failed", replyReleased: false });
    const after = await sides(request, order.id);
    expect(after.inShop).toHaveLength(1);
    expect(after.rows).toMatchObject([{ state: "failed", failureReason: "provider_refused", providerRefundId: null }]);
    expect(after.ticket).toEqual({ status: "needs_human", reason: "refund_failed" });
  });

  it.runIf(!!process.env.DATABASE_URL)(
    "survives a crash after the shop made the refund and before we recorded it: one refund, the row succeeded after reconciliation",
    async () => {
      const db = testDb();
      const { request, order } = await approvedShopRefund();
      // The shop makes the refund, then holds its answer; the settling process dies meanwhile.
      shop.failNext("hold", 1, 30_000, REFUND_CREATE);
      const child = spawnTs("testing/settle-then-hang.ts", [db.url!, request.id], {
        PAYMENTS_PROVIDER: "shopify",
        ORDER_SOURCE: "shopify",
        SHOPIFY_SHOP_URL: shop.url,
        SHOPIFY_ACCESS_TOKEN: shop.accessToken,
      });
      for (let i = 0; i < 400 && shop.refundsOf(order.id).length === 0; i++) await sleep(50);
      await killHard(child);
      const crashed = await sides(request, order.id);
      expect(crashed.inShop).toHaveLength(1);
      expect(crashed.rows.map((r) => r.state)).toEqual(["requested"]);
      expect(crashed.replies).toBe(0);
      expect(crashed.ticket.status).toBe("approved");

      const reconciled = await reconcileProviderRefunds({ olderThanMs: 0, provider });
      expect(reconciled.failed).toEqual([]);
      const after = await sides(request, order.id);
      expect(after.inShop).toHaveLength(1);
      expect(after.rows).toMatchObject([{ state: "succeeded", providerRefundId: after.inShop[0]!.id }]);
      expect(after.ticket.status).toBe("resolved");
      expect(after.replies).toBe(1);
    },
    60_000,
  );
});
