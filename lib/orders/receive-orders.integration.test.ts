// The orders API's rules on a real database: upserts with their audit events, the refunds made
// elsewhere counted in what an order still allows, idempotency by webhook-id, and every refusal –
// forged, replayed, stale, mistyped, unknown fields – with nothing changed.
import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { webhookHeaders } from "../../testing/intake";
import { customerBody, orderBody } from "../../testing/orders";
import { orderFacts } from "../agent/tools";
import { receiveOrders, type TOrdersConfig } from "./receive-orders";

const testDb = useTestDb();
const SECRET = "orders-test-secret-0123456789abcdef01234";
const CONFIG: TOrdersConfig = { secrets: [SECRET], toleranceSeconds: 300 };

type TOptions = { raw?: string; headers?: Record<string, string>; id?: string; secret?: string; config?: Partial<TOrdersConfig> };

function put(resource: "order" | "customer", id: string, body: unknown, options: TOptions = {}) {
  const raw = options.raw ?? JSON.stringify(body);
  const headers = options.headers ?? webhookHeaders(raw, options.secret ?? SECRET, options.id ? { id: options.id } : {});
  return receiveOrders(
    { resource, id, rawBody: Buffer.from(raw), headers: new Headers(headers), address: null },
    { ...CONFIG, ...options.config },
  );
}

/** Every row the orders API may write, counted. */
async function rows() {
  const { client } = testDb();
  const [customers, orders, refunds, deliveries, audit] = await Promise.all([
    client.customer.count(),
    client.order.count(),
    client.externalRefund.count(),
    client.orderDelivery.count(),
    client.auditEvent.count(),
  ]);
  return { customers, orders, refunds, deliveries, audit, lastOrder: await client.order.findMany({ orderBy: { id: "asc" } }) };
}

async function refused(resource: "order" | "customer", id: string, body: unknown, options: TOptions = {}) {
  const before = await rows();
  const answer = await put(resource, id, body, options);
  expect(await rows()).toEqual(before);
  return answer;
}

let n = 0;
/** A customer of its own, pushed through the API. */
async function newCustomer() {
  const id = `CUS-API-${++n}`;
  expect((await put("customer", id, customerBody(id))).status).toBe(201);
  return id;
}

describe("the orders API", () => {
  it("creates a customer and an order (201), audited, and the order's refunds made elsewhere lower what it still allows", async () => {
    const { client } = testDb();
    const customerId = await newCustomer();
    const body = orderBody(customerId, {
      refunds: [{ id: "shop-refund-1", amountCents: 2_500, at: new Date().toISOString(), source: "shop" }],
    });
    const created = await put("order", "ORD-API-1", body);
    expect(created).toEqual({ status: 201, body: { orderId: "ORD-API-1", created: true, refundsRecorded: ["shop-refund-1"] } });
    expect(await client.order.findUniqueOrThrow({ where: { id: "ORD-API-1" } })).toMatchObject({
      customerId,
      amountCents: 7_900,
      paymentReference: "pi_3Q0000000000000000000000",
      sourceReadAt: null,
    });
    expect(await orderFacts(client, "ord-api-1")).toMatchObject({ refundedCents: 2_500, refundableCents: 5_400 });
    expect(
      await client.auditEvent.findMany({ where: { subjectId: { in: [customerId, "ORD-API-1"] } }, orderBy: { seq: "asc" } }),
    ).toMatchObject([
      { action: "customer.upserted", actorType: "api", actorId: "orders", inputs: { created: true } },
      { action: "order.upserted", actorType: "api", actorId: "orders", inputs: { created: true, newRefunds: 1 } },
    ]);
  });

  it("replaces an order's columns on a later delivery (200) and adds refunds once by id, never removing one", async () => {
    const { client } = testDb();
    const customerId = await newCustomer();
    const first = { id: "shop-refund-2a", amountCents: 1_000, at: new Date().toISOString(), source: "shop" };
    expect((await put("order", "ORD-API-2", orderBody(customerId, { refunds: [first] }))).status).toBe(201);
    const second = { id: "shop-refund-2b", amountCents: 500, at: new Date().toISOString(), source: "pos" };
    const replaced = await put("order", "ORD-API-2", orderBody(customerId, { item: "Aurora tablet (renamed)", refunds: [first, second] }));
    expect(replaced).toEqual({ status: 200, body: { orderId: "ORD-API-2", created: false, refundsRecorded: ["shop-refund-2b"] } });
    expect(await client.order.findUniqueOrThrow({ where: { id: "ORD-API-2" } })).toMatchObject({ item: "Aurora tablet (renamed)" });
    // A delivery replaces every column (the item's name back to the default's), and one that leaves
    // the refunds out leaves them counted.
    expect((await put("order", "ORD-API-2", orderBody(customerId, { amountCents: 8_000 }))).status).toBe(200);
    expect(await client.order.findUniqueOrThrow({ where: { id: "ORD-API-2" } })).toMatchObject({
      item: "Aurora 10-inch tablet",
      amountCents: 8_000,
    });
    expect(await orderFacts(client, "ORD-API-2")).toMatchObject({ refundedCents: 1_500, refundableCents: 6_500 });
    // Nor may anything else change or remove one: the table refuses it (its trigger; on PostgreSQL
    // with the app's own role, the missing privilege first).
    const refused = /append_only|permission denied for table/;
    await expect(client.$executeRaw`UPDATE "ExternalRefund" SET "amountCents" = 1 WHERE id = 'shop-refund-2a'`).rejects.toThrow(refused);
    await expect(client.$executeRaw`DELETE FROM "ExternalRefund" WHERE id = 'shop-refund-2a'`).rejects.toThrow(refused);
  });

  it("answers a repeat of a webhook-id with the first answer and changes nothing; another body under it is a 409", async () => {
    const customerId = await newCustomer();
    const body = orderBody(customerId);
    const first = await put("order", "ORD-API-3", body, { id: "msg_orders_repeat" });
    expect(first.status).toBe(201);
    expect(await refused("order", "ORD-API-3", body, { id: "msg_orders_repeat" })).toEqual(first);
    const other = await refused("order", "ORD-API-3", { ...body, amountCents: 1 }, { id: "msg_orders_repeat" });
    expect(other).toMatchObject({ status: 409, body: { error: "idempotency_mismatch" } });
    // The same id on another resource is another body too.
    expect(await refused("customer", "ORD-API-3", customerBody("x"), { id: "msg_orders_repeat" })).toMatchObject({ status: 409 });
  });

  it("refuses a forged, stale or unsigned delivery, and everything while no secret is set (401), with nothing changed", async () => {
    const customerId = await newCustomer();
    const body = orderBody(customerId);
    const raw = JSON.stringify(body);
    expect(await refused("order", "ORD-API-4", body, { secret: "another-secret-0123456789abcdef0123456" })).toMatchObject({
      status: 401,
      body: { error: "invalid_signature" },
    });
    const stale = webhookHeaders(raw, SECRET, { timestamp: new Date(Date.now() - 301_000) });
    expect(await refused("order", "ORD-API-4", body, { raw, headers: stale })).toMatchObject({
      status: 401,
      body: { error: "invalid_signature" },
    });
    // Signed, then changed on the way.
    const signed = webhookHeaders(raw, SECRET);
    expect(await refused("order", "ORD-API-4", null, { raw: raw.replace("7900", "790"), headers: signed })).toMatchObject({ status: 401 });
    expect(await refused("order", "ORD-API-4", body, { headers: { "content-type": "application/json" } })).toMatchObject({ status: 401 });
    expect(await refused("order", "ORD-API-4", body, { config: { secrets: [] } })).toMatchObject({
      status: 401,
      body: { error: "orders_api_closed" },
    });
  });

  it("refuses another content type (415), unknown fields, fractional or negative amounts, bad codes and dates (400), with nothing changed", async () => {
    const customerId = await newCustomer();
    const body = orderBody(customerId);
    const raw = JSON.stringify(body);
    expect(
      await refused("order", "ORD-API-5", body, { raw, headers: { ...webhookHeaders(raw, SECRET), "content-type": "text/plain" } }),
    ).toMatchObject({
      status: 415,
    });
    const fieldErrors = async (over: Record<string, unknown>) => {
      const answer = await refused("order", "ORD-API-5", { ...body, ...over });
      expect(answer.status).toBe(400);
      return Object.keys((answer.body as { fieldErrors: Record<string, string[]> }).fieldErrors);
    };
    expect(await fieldErrors({ discount: 5 })).toEqual(["discount"]);
    expect(await fieldErrors({ refunds: [{ id: "r", amountCents: 100, at: new Date().toISOString(), source: "shop", by: "x" }] })).toEqual([
      "refunds.0.by",
    ]);
    expect(await fieldErrors({ amountCents: 79.5 })).toEqual(["amountCents"]);
    expect(await fieldErrors({ amountCents: -1 })).toEqual(["amountCents"]);
    expect(await fieldErrors({ amountCents: "7900" })).toEqual(["amountCents"]);
    expect(await fieldErrors({ currency: "usd" })).toEqual(["currency"]);
    expect(await fieldErrors({ region: "USA" })).toEqual(["region"]);
    expect(await fieldErrors({ category: "Electronics!" })).toEqual(["category"]);
    expect(await fieldErrors({ placedAt: "yesterday" })).toEqual(["placedAt"]);
    expect(await fieldErrors({ refunds: [{ id: "r", amountCents: 8_000, at: new Date().toISOString(), source: "shop" }] })).toEqual([
      "refunds",
    ]);
    expect((await refused("order", "ORD API 5", body)).status).toBe(400);
    // A key given twice: two readers of one signed body could see two orders.
    const twice = raw.replace('"amountCents":7900', '"amountCents":7900,"amountCents":1');
    expect(await refused("order", "ORD-API-5", null, { raw: twice })).toMatchObject({
      status: 400,
      body: { fieldErrors: { amountCents: ["is given more than once"] } },
    });
  });

  it("refuses an order of an unknown customer, a customer's email taken by another, and a refund id reported with other facts (409), with nothing changed", async () => {
    expect(await refused("order", "ORD-API-6", orderBody("CUS-NOBODY"))).toMatchObject({
      status: 409,
      body: { error: "unknown_customer" },
    });
    const customerId = await newCustomer();
    const other = await newCustomer();
    expect(await refused("customer", other, customerBody(customerId))).toMatchObject({ status: 409, body: { error: "email_taken" } });
    const refund = { id: "shop-refund-6", amountCents: 1_000, at: new Date().toISOString(), source: "shop" };
    expect((await put("order", "ORD-API-6", orderBody(customerId, { refunds: [refund] }))).status).toBe(201);
    expect((await put("order", "ORD-API-6b", orderBody(customerId))).status).toBe(201);
    // The same refund id on another order, or with another amount: the whole delivery is refused.
    expect(await refused("order", "ORD-API-6b", orderBody(customerId, { item: "changed", refunds: [refund] }))).toMatchObject({
      status: 409,
      body: { error: "refund_conflict", refundIds: ["shop-refund-6"] },
    });
    expect(
      await refused("order", "ORD-API-6", orderBody(customerId, { item: "changed", refunds: [{ ...refund, amountCents: 999 }] })),
    ).toMatchObject({
      status: 409,
    });
  });

  it("keeps a customer's flag when a delivery leaves it out, and sets it when given", async () => {
    const { client } = testDb();
    const id = await newCustomer();
    expect((await put("customer", id, customerBody(id, { flagged: true }))).status).toBe(200);
    expect((await put("customer", id, customerBody(id, { name: "Renamed" }))).status).toBe(200);
    expect(await client.customer.findUniqueOrThrow({ where: { id } })).toMatchObject({ name: "Renamed", flagged: true });
  });
});
