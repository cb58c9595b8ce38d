// The intake API and the outbox over real HTTP against the production build, signed by hand the
// Standard Webhooks way as a helpdesk would.
import { createHmac } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { E2E_BUNDLE_KEY, E2E_INTAKE_SECRET, expect, test, webhookHeaders } from "./fixtures";

// Bodies go as Buffers: Playwright re-serialises a string that is not valid JSON, which would
// change the bytes the signature covers.
const routeSignature = (externalId: string, route: string, bundleVersion: string) =>
  createHmac("sha256", E2E_BUNDLE_KEY).update(`${externalId}\n${route}\n${bundleVersion}`).digest("hex");

function payload(externalId: string, overrides: Record<string, unknown> = {}) {
  return {
    externalId,
    subject: "Tablet arrived cracked",
    body: "The screen of my tablet is cracked. Can I get a refund?",
    customerEmail: "dana.whitfield@example.net",
    orderId: "ORD-1001",
    route: "guarded_agent",
    bundleVersion: "intake-rules-2026.11",
    routeSignature: routeSignature(externalId, "guarded_agent", "intake-rules-2026.11"),
    ...overrides,
  };
}

const post = (request: APIRequestContext, body: string | Buffer, headers: Record<string, string> = webhookHeaders(body)) =>
  request.post("/api/intake/tickets", { data: Buffer.isBuffer(body) ? body : Buffer.from(body), headers });

test("a signed delivery creates one ticket; a repeat and a replay answer 200; another body 409", async ({ request }) => {
  const raw = JSON.stringify(payload("e2e-hd-1"));
  const headers = webhookHeaders(raw);
  const created = await post(request, raw, headers);
  expect(created.status()).toBe(201);
  const first = await created.json();
  expect(first).toMatchObject({ externalId: "e2e-hd-1", admission: "admitted", status: "open" });
  // The same request replayed byte for byte inside the window, and a retry signed afresh.
  for (const again of [await post(request, raw, headers), await post(request, raw)]) {
    expect(again.status()).toBe(200);
    expect(await again.json()).toEqual(first);
  }
  const changed = await post(request, JSON.stringify(payload("e2e-hd-1", { body: "Refund me twice" })));
  expect(changed.status()).toBe(409);
  expect(await changed.json()).toMatchObject({ error: "idempotency_mismatch" });
});

test("refuses what it cannot store as sent: 415, 400 by field, 401, 413, and creates nothing", async ({ request }) => {
  const raw = JSON.stringify(payload("e2e-hd-2"));
  const refusals: [string, Buffer | string, Record<string, string>, number, string, string?][] = [
    ["text/plain", raw, { ...webhookHeaders(raw), "content-type": "text/plain" }, 415, "unsupported_media_type"],
    ["a wrong secret", raw, webhookHeaders(raw, { secret: "wrong-secret-0123456789abcdef0123456789" }), 401, "invalid_signature"],
    ["a stale timestamp", raw, webhookHeaders(raw, { timestamp: Math.floor(Date.now() / 1000) - 600 }), 401, "invalid_signature"],
    ["malformed JSON", '{"externalId":', webhookHeaders('{"externalId":'), 400, "invalid_json"],
    ["a duplicate key", raw.replace(/}$/, ',"orderId":"ORD-1002"}'), {}, 400, "invalid_fields", "orderId"],
    ["a __proto__ key", raw.replace(/}$/, ',"__proto__":{"admin":true}}'), {}, 400, "invalid_fields", "__proto__"],
    ["NUL in the subject", JSON.stringify(payload("e2e-hd-2", { subject: "Cracked\u0000" })), {}, 400, "invalid_fields", "subject"],
    [
      "invalid UTF-8",
      Buffer.concat([
        Buffer.from(raw.slice(0, raw.indexOf("cracked"))),
        Buffer.from([0xc3, 0x28]),
        Buffer.from(raw.slice(raw.indexOf("cracked"))),
      ]),
      {},
      400,
      "invalid_fields",
      "subject",
    ],
    ["an oversized body", JSON.stringify(payload("e2e-hd-2", { body: "x".repeat(70_000) })), {}, 413, "payload_too_large"],
  ];
  for (const [label, body, headers, status, error, field] of refusals) {
    const response = await post(request, body, Object.keys(headers).length ? headers : webhookHeaders(body));
    expect(response.status(), label).toBe(status);
    const answer = await response.json();
    expect(answer.error, label).toBe(error);
    if (field) expect(Object.keys(answer.fieldErrors), label).toEqual([field]);
  }
  const partial = JSON.stringify({ externalId: "e2e-hd-3", route: "guarded_agent" });
  const missing = await post(request, partial);
  expect(missing.status()).toBe(400);
  expect(Object.keys((await missing.json()).fieldErrors)).toEqual(
    expect.arrayContaining(["subject", "body", "customerEmail", "bundleVersion"]),
  );
  // Nothing was created by any refused request: the id is still new.
  expect((await post(request, raw)).status()).toBe(201);
});

test("the outbox answers a signed read with a Standard Webhooks signature bound to the request's id", async ({ request }) => {
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = `sha256=${createHmac("sha256", E2E_INTAKE_SECRET).update(`${timestamp}\nGET\n/api/outbox?limit=2`).digest("hex")}`;
  const response = await request.get("/api/outbox?limit=2", {
    headers: { "x-countersign-timestamp": String(timestamp), "x-countersign-signature": signature, "x-request-id": "e2e-outbox-read-0001" },
  });
  expect(response.status()).toBe(200);
  const headers = response.headers();
  expect(headers["webhook-id"]).toBe("e2e-outbox-read-0001");
  // Verified with the Standard Webhooks library, as the helpdesk would (the secret's UTF-8 bytes as the key).
  const verified = new Webhook(Buffer.from(E2E_INTAKE_SECRET), { format: "raw" }).verify(await response.text(), headers);
  expect(verified).toMatchObject({ messages: expect.any(Array) });
});
