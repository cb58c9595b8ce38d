// The intake API over real HTTP against the real server.
import { createHmac } from "node:crypto";
import { E2E_BUNDLE_KEY, E2E_INTAKE_SECRET, expect, test } from "./fixtures";

// Bodies go as Buffers: Playwright re-serialises a string that is not valid JSON, which would
// change the bytes the signature covers.
const sign = (raw: string, secret = E2E_INTAKE_SECRET) => `sha256=${createHmac("sha256", secret).update(raw).digest("hex")}`;
const routeSignature = (externalId: string, route: string, bundleVersion: string) =>
  createHmac("sha256", E2E_BUNDLE_KEY).update(`${externalId}\n${route}\n${bundleVersion}`).digest("hex");

function payload(externalId: string) {
  return {
    externalId,
    subject: "Tablet arrived cracked",
    body: "The screen of my tablet is cracked. Can I get a refund?",
    customerEmail: "dana.whitfield@example.net",
    orderId: "ORD-1001",
    route: "guarded_agent",
    bundleVersion: "intake-rules-2026.11",
    routeSignature: routeSignature(externalId, "guarded_agent", "intake-rules-2026.11"),
  };
}

test("a signed delivery creates one ticket; a repeat answers 200; another body 409", async ({ request }) => {
  const raw = JSON.stringify(payload("e2e-hd-1"));
  const post = (body: string) => request.post("/api/intake/tickets", { data: Buffer.from(body), headers: { "content-type": "application/json", "x-countersign-signature": sign(body) } });
  const created = await post(raw);
  expect(created.status()).toBe(201);
  const first = await created.json();
  expect(first).toMatchObject({ externalId: "e2e-hd-1", admission: "admitted", status: "open" });
  const repeat = await post(raw);
  expect(repeat.status()).toBe(200);
  expect(await repeat.json()).toEqual(first);
  const changed = await post(JSON.stringify({ ...payload("e2e-hd-1"), body: "Refund me twice" }));
  expect(changed.status()).toBe(409);
  expect(await changed.json()).toMatchObject({ error: "idempotency_mismatch" });
});

test("bad signature 401, malformed JSON 400, missing fields 400 by name, oversized 413", async ({ request }) => {
  const raw = JSON.stringify(payload("e2e-hd-2"));
  const post = (body: string, signature: string) => request.post("/api/intake/tickets", { data: Buffer.from(body), headers: { "content-type": "application/json", "x-countersign-signature": signature } });
  const unsigned = await post(raw, sign(raw, "wrong-secret"));
  expect(unsigned.status()).toBe(401);
  expect(await unsigned.json()).toMatchObject({ error: "invalid_signature" });
  const broken = '{"externalId":';
  expect((await post(broken, sign(broken))).status()).toBe(400);
  const partial = JSON.stringify({ externalId: "e2e-hd-3", route: "guarded_agent" });
  const missing = await post(partial, sign(partial));
  expect(missing.status()).toBe(400);
  expect(Object.keys((await missing.json()).fieldErrors)).toEqual(expect.arrayContaining(["subject", "body", "customerEmail", "bundleVersion"]));
  const huge = JSON.stringify({ ...payload("e2e-hd-4"), body: "x".repeat(70_000) });
  const tooLarge = await post(huge, sign(huge));
  expect(tooLarge.status()).toBe(413);
  // Nothing was created by any refused request: the repeat of a refused id is still new.
  const fresh = JSON.stringify(payload("e2e-hd-2"));
  expect((await post(fresh, sign(fresh))).status()).toBe(201);
});
