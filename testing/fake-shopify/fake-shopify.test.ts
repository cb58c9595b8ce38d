// The fake shop itself, over real HTTP as any client reaches it: the token, the schema's validation,
// orders by id and by name with their refunds, refundCreate's idempotency and limits, and each
// injected failure.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeShopify, type TFakeShopify } from "./server";

let shop: TFakeShopify;
beforeAll(async () => {
  shop = await startFakeShopify();
});
afterAll(() => shop?.close());

async function post(body: unknown, token = shop.accessToken, path = "/admin/api/2026-04/graphql.json") {
  const response = await fetch(`${shop.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-shopify-access-token": token },
    body: JSON.stringify(body),
  });
  // The answers' shapes are what the tests assert: read loosely, as JSON.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type TLoose = any;
  return { status: response.status, body: (await response.json()) as { data?: TLoose; errors?: TLoose } };
}

const REFUND = `mutation Refund($input: RefundInput!, $key: String!) {
  refundCreate(input: $input) @idempotent(key: $key) {
    refund { id note totalRefundedSet { shopMoney { amount currencyCode } } }
    userErrors { field message }
  }
}`;

function refundInput(orderId: string, amount: string, note = "countersign:test") {
  return { orderId, note, transactions: [{ orderId, amount, gateway: "shopify_payments", kind: "REFUND" }] };
}

describe("the fake Shopify Admin GraphQL endpoint", () => {
  it("refuses a missing or wrong access token (401) and an unknown path (404)", async () => {
    expect((await post({ query: "{ orders(first: 1) { nodes { id } } }" }, "wrong")).status).toBe(401);
    expect(
      (await post({ query: "{ orders(first: 1) { nodes { id } } }" }, shop.accessToken, "/admin/api/2023-01/graphql.json")).status,
    ).toBe(404);
  });

  it("answers an order by id and by name, with its customer, money and refunds; an unknown field is a validation error", async () => {
    const customer = shop.addCustomer({ displayName: "Ada Lovelace", email: "ada@example.net" });
    const order = shop.addOrder({
      name: "#2001",
      customerId: customer.id,
      totalCents: 12_500,
      title: "Desk lamp",
      productType: "Lighting",
    });
    shop.refundInShop(order.id, 2_000, "damaged box");
    const byId = await post({
      query: `query One($id: ID!) { order(id: $id) { name totalPriceSet { shopMoney { amount currencyCode } } totalRefundedSet { shopMoney { amount } } customer { displayName defaultEmailAddress { emailAddress } } refunds(first: 5) { note totalRefundedSet { shopMoney { amount } } } } }`,
      variables: { id: order.id },
    });
    expect(byId.body.data.order).toEqual({
      name: "#2001",
      totalPriceSet: { shopMoney: { amount: "125.00", currencyCode: "USD" } },
      totalRefundedSet: { shopMoney: { amount: "20.00" } },
      customer: { displayName: "Ada Lovelace", defaultEmailAddress: { emailAddress: "ada@example.net" } },
      refunds: [{ note: "damaged box", totalRefundedSet: { shopMoney: { amount: "20.00" } } }],
    });
    const byName = await post({ query: `{ orders(first: 5, query: "name:\\"#2001\\"") { nodes { id } } }` });
    expect(byName.body.data.orders.nodes).toEqual([{ id: order.id }]);
    const unknown = await post({ query: `{ order(id: "${order.id}") { secretField } }` });
    expect(unknown.body.errors[0].message).toMatch(/secretField/);
  });

  it("refundCreate needs @idempotent; the same key and input answers the first refund, another input under it is refused", async () => {
    const order = shop.addOrder({ totalCents: 5_000, title: "Mug" });
    const without = await post({ query: `mutation { refundCreate(input: { orderId: "${order.id}" }) { userErrors { message } } }` });
    expect(without.body.errors[0].message).toMatch(/@idempotent/);

    const first = await post({ query: REFUND, variables: { input: refundInput(order.id, "30.00"), key: "k-1" } });
    const again = await post({ query: REFUND, variables: { input: refundInput(order.id, "30.00"), key: "k-1" } });
    expect(first.body.data.refundCreate.userErrors).toEqual([]);
    expect(again.body.data.refundCreate.refund).toEqual(first.body.data.refundCreate.refund);
    expect(shop.refundsOf(order.id)).toHaveLength(1);

    const other = await post({ query: REFUND, variables: { input: refundInput(order.id, "10.00"), key: "k-1" } });
    expect(other.body.errors[0].extensions.code).toBe("IDEMPOTENCY_KEY_REUSED_WITH_DIFFERENT_INPUT");
    expect(shop.refundsOf(order.id)).toHaveLength(1);

    // More than the order has left: a user error, no refund.
    const over = await post({ query: REFUND, variables: { input: refundInput(order.id, "20.01"), key: "k-2" } });
    expect(over.body.data.refundCreate).toMatchObject({ refund: null, userErrors: [{ field: ["transactions"] }] });
    expect(shop.refundsOf(order.id)).toHaveLength(1);
  });

  it("fails as told: a 500 that did nothing, a slow answer, and a lost answer after the refund was made", async () => {
    const order = shop.addOrder({ totalCents: 9_000, title: "Kettle" });
    const input = { query: REFUND, variables: { input: refundInput(order.id, "15.00"), key: "k-fail" } };

    shop.failNext("500");
    expect((await post(input)).status).toBe(500);
    expect(shop.refundsOf(order.id)).toHaveLength(0);

    shop.failNext("lost");
    await expect(post(input)).rejects.toThrow();
    expect(shop.refundsOf(order.id)).toHaveLength(1);
    // The retry with the same key finds the refund the lost answer was about.
    const retry = await post(input);
    expect(retry.body.data.refundCreate.refund.id).toBe(shop.refundsOf(order.id)[0]!.id);
    expect(shop.refundsOf(order.id)).toHaveLength(1);

    shop.failNext("slow", 1, 400);
    const started = Date.now();
    expect((await post({ query: `{ order(id: "${order.id}") { name } }` })).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
  });

  it("keeps each refund's transaction status, moved later as the gateway settles it; a failed one takes nothing from the order", async () => {
    const order = shop.addOrder({ totalCents: 4_000, title: "Scarf" });
    const read = `query St($id: ID!) { refund(id: $id) { id transactions(first: 5) { nodes { kind status errorCode } } } }`;

    shop.refundsStartAs("PENDING");
    const made = await post({ query: REFUND, variables: { input: refundInput(order.id, "40.00"), key: "k-state" } });
    const id = made.body.data.refundCreate.refund.id as string;
    expect((await post({ query: read, variables: { id } })).body.data.refund.transactions.nodes).toEqual([
      { kind: "REFUND", status: "PENDING", errorCode: null },
    ]);
    // Pending takes the amount: nothing more fits.
    const more = await post({ query: REFUND, variables: { input: refundInput(order.id, "0.01"), key: "k-state-2" } });
    expect(more.body.data.refundCreate.refund).toBeNull();

    shop.settleRefund(id, "FAILURE", "CARD_DECLINED");
    expect((await post({ query: read, variables: { id } })).body.data.refund.transactions.nodes).toEqual([
      { kind: "REFUND", status: "FAILURE", errorCode: "CARD_DECLINED" },
    ]);
    const total = await post({
      query: `query T($id: ID!) { order(id: $id) { totalRefundedSet { shopMoney { amount } } } }`,
      variables: { id: order.id },
    });
    expect(total.body.data.order.totalRefundedSet.shopMoney.amount).toBe("0.00");
    expect((await post({ query: read, variables: { id: "gid://shopify/Refund/0" } })).body.data.refund).toBeNull();
    shop.refundsStartAs("SUCCESS");
  });

  it("fails only the operation named, and holds an answer after the work was done", async () => {
    const order = shop.addOrder({ totalCents: 3_000, title: "Cap" });
    shop.failNext("500", 1, 0, "Refund");
    // Another operation is not touched by it.
    expect((await post({ query: `query Other { order(id: "${order.id}") { name } }` })).status).toBe(200);
    expect((await post({ query: REFUND, variables: { input: refundInput(order.id, "5.00"), key: "k-op" } })).status).toBe(500);
    expect(shop.refundsOf(order.id)).toHaveLength(0);

    shop.failNext("hold", 1, 300, "Refund");
    const answered = post({ query: REFUND, variables: { input: refundInput(order.id, "5.00"), key: "k-op" } });
    await new Promise((r) => setTimeout(r, 150));
    // Made already, its answer not yet sent.
    expect(shop.refundsOf(order.id)).toHaveLength(1);
    expect((await answered).body.data.refundCreate.refund.id).toBe(shop.refundsOf(order.id)[0]!.id);

    shop.deleteOrder(order.id);
    expect((await post({ query: `query Gone { order(id: "${order.id}") { name } }` })).body.data.order).toBeNull();
  });
});
