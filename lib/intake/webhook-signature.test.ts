import { createHmac, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signWebhook, verifyWebhook, webhookKey } from "./webhook-signature";

const OLD = "old-intake-secret-0123456789abcdef0123456789";
const NEW = "new-intake-secret-0123456789abcdef0123456789";
const BODY = '{"externalId":"hd-1","subject":"Cracked"}';

function headersOf(values: Record<string, string>) {
  return new Headers(values);
}

function verify(
  headers: Record<string, string>,
  options: { secrets?: string[]; payload?: string; toleranceSeconds?: number; now?: Date } = {},
) {
  return verifyWebhook({
    secrets: options.secrets ?? [NEW, OLD],
    headers: headersOf(headers),
    payload: options.payload ?? BODY,
    toleranceSeconds: options.toleranceSeconds ?? 300,
    now: options.now,
  });
}

describe("Standard Webhooks signatures", () => {
  it("signs in the documented format: base64 HMAC-SHA256 of id.timestamp.body, the secret's UTF-8 bytes as key", () => {
    const at = new Date("2026-11-22T10:00:00Z");
    const headers = signWebhook({ secret: NEW, id: "msg_1", timestamp: at, payload: BODY });
    const expected = createHmac("sha256", NEW)
      .update(`msg_1.${at.getTime() / 1000}.${BODY}`)
      .digest("base64");
    expect(headers).toEqual({
      "webhook-id": "msg_1",
      "webhook-timestamp": String(at.getTime() / 1000),
      "webhook-signature": `v1,${expected}`,
    });
  });

  it("reads a whsec_ secret as base64, as Standard Webhooks issues them", () => {
    const key = randomBytes(24);
    expect(Buffer.from(webhookKey(`whsec_${key.toString("base64")}`))).toEqual(key);
    const headers = signWebhook({ secret: `whsec_${key.toString("base64")}`, id: "msg_2", timestamp: new Date(), payload: BODY });
    const expected = createHmac("sha256", key).update(`msg_2.${headers["webhook-timestamp"]}.${BODY}`).digest("base64");
    expect(headers["webhook-signature"]).toBe(`v1,${expected}`);
  });

  it("accepts a delivery signed with the old secret while it is still in rotation, and names the secret that matched", () => {
    const signed = signWebhook({ secret: OLD, id: "msg_old", timestamp: new Date(), payload: BODY });
    expect(verify(signed)).toMatchObject({ ok: true, webhookId: "msg_old", secret: OLD });
    expect(verify(signed, { secrets: [NEW] })).toMatchObject({ ok: false, reason: "no_matching_signature" });
    // Signed with both during the switch: either secret alone accepts it.
    const both = {
      ...signed,
      "webhook-signature": `${signWebhook({ secret: NEW, id: "msg_old", timestamp: new Date(Number(signed["webhook-timestamp"]) * 1000), payload: BODY })["webhook-signature"]} ${signed["webhook-signature"]}`,
    };
    expect(verify(both, { secrets: [NEW] })).toMatchObject({ ok: true, secret: NEW });
    expect(verify(both, { secrets: [OLD] })).toMatchObject({ ok: true, secret: OLD });
  });

  it.each([
    ["six minutes old", -360, 300],
    ["six minutes ahead", 360, 300],
    ["61 seconds old with a 60-second tolerance", -61, 60],
  ])("refuses a timestamp %s", (_label, offsetSeconds, toleranceSeconds) => {
    const signed = signWebhook({ secret: NEW, id: "msg_t", timestamp: new Date(Date.now() + offsetSeconds * 1000), payload: BODY });
    expect(verify(signed, { toleranceSeconds })).toMatchObject({ ok: false, reason: "timestamp_outside_window" });
  });

  it("accepts a timestamp inside the window", () => {
    const signed = signWebhook({ secret: NEW, id: "msg_t", timestamp: new Date(Date.now() - 50_000), payload: BODY });
    expect(verify(signed, { toleranceSeconds: 60 })).toMatchObject({ ok: true });
  });

  it.each([
    ["another body", (h: Record<string, string>) => ({ headers: h, payload: BODY + " " })],
    ["another id", (h: Record<string, string>) => ({ headers: { ...h, "webhook-id": "msg_other" } })],
    [
      "another timestamp",
      (h: Record<string, string>) => ({ headers: { ...h, "webhook-timestamp": String(Number(h["webhook-timestamp"]) - 1) } }),
    ],
    [
      "a v2 signature",
      (h: Record<string, string>) => ({ headers: { ...h, "webhook-signature": h["webhook-signature"]!.replace("v1,", "v2,") } }),
    ],
    [
      "another secret",
      () => ({
        headers: signWebhook({ secret: "a-third-secret-0123456789abcdef0123456789", id: "msg_s", timestamp: new Date(), payload: BODY }),
      }),
    ],
  ] as [string, (h: Record<string, string>) => { headers: Record<string, string>; payload?: string }][])(
    "refuses a signature over %s",
    (_label, change) => {
      const { headers, payload } = change(signWebhook({ secret: NEW, id: "msg_s", timestamp: new Date(), payload: BODY }));
      expect(verify(headers, { payload })).toMatchObject({ ok: false, reason: "no_matching_signature" });
    },
  );

  it("refuses missing or malformed headers before any HMAC", () => {
    const signed = signWebhook({ secret: NEW, id: "msg_h", timestamp: new Date(), payload: BODY });
    expect(verify({ "webhook-id": "msg_h", "webhook-signature": signed["webhook-signature"]! })).toMatchObject({
      ok: false,
      reason: "missing_headers",
    });
    expect(verify({ ...signed, "webhook-timestamp": `${signed["webhook-timestamp"]}abc` })).toMatchObject({
      ok: false,
      reason: "malformed_headers",
    });
    expect(verify({ ...signed, "webhook-id": "msg h" })).toMatchObject({ ok: false, reason: "malformed_headers" });
  });
});
