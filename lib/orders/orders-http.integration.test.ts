// The orders API over real HTTP: the route handlers behind Node's HTTP server in a child process,
// configured with two secrets in rotation, and signed by hand with node:crypto as a shop's system in
// another language would sign – not with the app's own signing code. On PostgreSQL, concurrent
// deliveries of one webhook-id race for real, and the test reads the server's tables.
import { createHmac, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerBody, orderBody } from "../../testing/orders";
import { startRouteServer, type TRouteServer } from "../../testing/route-server";

const NEW = "http-new-orders-secret-0123456789abcdef0123";
const OLD = "http-old-orders-secret-0123456789abcdef0123";

let server: TRouteServer;
beforeAll(async () => {
  server = await startRouteServer({ ORDERS_SECRETS: `${NEW},${OLD}` });
}, 120_000);
afterAll(() => server?.close());

/** Standard Webhooks, by hand: v1,base64(HMAC-SHA256(secret, "<id>.<timestamp>.<body>")). */
function sign(body: string, secret: string, options: { id?: string; timestamp?: number } = {}): Record<string, string> {
  const id = options.id ?? `msg_${randomUUID()}`;
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const signature = createHmac("sha256", secret).update(`${id}.${timestamp}.${body}`).digest("base64");
  return {
    "content-type": "application/json",
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": `v1,${signature}`,
  };
}

async function put(path: string, body: string, headers: Record<string, string>) {
  const response = await fetch(`${server.origin}${path}`, { method: "PUT", body, headers });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const counts = async () =>
  server.database
    ? {
        orders: await server.database.client.order.count(),
        refunds: await server.database.client.externalRefund.count(),
        audit: await server.database.client.auditEvent.count({ where: { action: { in: ["order.upserted", "customer.upserted"] } } }),
      }
    : null;

describe("the orders API over HTTP", () => {
  it("upserts a customer and an order signed with either secret, and answers a repeat as the first time", async () => {
    const customer = JSON.stringify(customerBody("http-1"));
    expect(await put("/api/customers/CUS-HTTP-1", customer, sign(customer, OLD))).toEqual({
      status: 201,
      body: { customerId: "CUS-HTTP-1", created: true },
    });
    const order = JSON.stringify(
      orderBody("CUS-HTTP-1", { refunds: [{ id: "http-r1", amountCents: 900, at: new Date().toISOString(), source: "shop" }] }),
    );
    const headers = sign(order, NEW);
    const first = await put("/api/orders/ORD-HTTP-1", order, headers);
    expect(first).toEqual({ status: 201, body: { orderId: "ORD-HTTP-1", created: true, refundsRecorded: ["http-r1"] } });
    const before = await counts();
    expect(await put("/api/orders/ORD-HTTP-1", order, headers)).toEqual(first);
    expect(await counts()).toEqual(before);
  });

  it("refuses a forged, replayed-with-changes, stale, mistyped or over-told delivery, with nothing changed", async () => {
    const order = JSON.stringify(orderBody("CUS-HTTP-1"));
    const before = await counts();
    const forged = sign(order, "not-the-secret-0123456789abcdef0123456789");
    expect(await put("/api/orders/ORD-HTTP-2", order, forged)).toMatchObject({ status: 401, body: { error: "invalid_signature" } });
    const stale = sign(order, NEW, { timestamp: Math.floor(Date.now() / 1000) - 3_600 });
    expect(await put("/api/orders/ORD-HTTP-2", order, stale)).toMatchObject({ status: 401 });
    const signed = sign(order, NEW);
    expect(await put("/api/orders/ORD-HTTP-2", order, { ...signed, "content-type": "text/plain" })).toMatchObject({ status: 415 });
    const extra = JSON.stringify({ ...orderBody("CUS-HTTP-1"), couponCode: "FREE" });
    expect(await put("/api/orders/ORD-HTTP-2", extra, sign(extra, NEW))).toMatchObject({
      status: 400,
      body: { error: "invalid_fields", fieldErrors: { couponCode: ["is not a known field"] } },
    });
    // A delivery taken (its webhook-id used) and sent again with another body.
    expect((await put("/api/orders/ORD-HTTP-2", order, signed)).status).toBe(201);
    const changed = JSON.stringify(orderBody("CUS-HTTP-1", { amountCents: 100 }));
    const replay = sign(changed, NEW, { id: signed["webhook-id"] });
    const after = await counts();
    expect(await put("/api/orders/ORD-HTTP-2", changed, replay)).toMatchObject({ status: 409, body: { error: "idempotency_mismatch" } });
    expect(await counts()).toEqual(after);
    if (before && after) expect(after.orders).toBe(before.orders + 1);
  });

  it("answers concurrent deliveries of one webhook-id with one change and the same answer", async () => {
    const customer = JSON.stringify(customerBody("http-3"));
    expect((await put("/api/customers/CUS-HTTP-3", customer, sign(customer, NEW))).status).toBe(201);
    const order = JSON.stringify(
      orderBody("CUS-HTTP-3", { refunds: [{ id: "http-r3", amountCents: 100, at: new Date().toISOString(), source: "shop" }] }),
    );
    const headers = sign(order, NEW);
    const before = await counts();
    const answers = await Promise.all(Array.from({ length: 8 }, () => put("/api/orders/ORD-HTTP-3", order, headers)));
    for (const answer of answers)
      expect(answer).toEqual({ status: 201, body: { orderId: "ORD-HTTP-3", created: true, refundsRecorded: ["http-r3"] } });
    const after = await counts();
    if (before && after) expect(after).toEqual({ orders: before.orders + 1, refunds: before.refunds + 1, audit: before.audit + 1 });
  });
});
