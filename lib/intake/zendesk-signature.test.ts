// Zendesk's own scheme, checked against a vector made outside this code: Zendesk signs
// base64(HMAC-SHA256(secret, timestamp + raw body)), no separator (developer.zendesk.com,
// "Verifying webhook authenticity"). The expected signature below was computed with openssl:
//   printf '%s' '<timestamp><body>' | openssl dgst -sha256 -hmac '<secret>' -binary | base64
import { describe, expect, it } from "vitest";
import { verifyZendeskSignature, zendeskSignature, ZENDESK_SIGNATURE_HEADER, ZENDESK_TIMESTAMP_HEADER } from "./zendesk-signature";

const SECRET = "zendesk-signing-secret-0123456789";
const TIMESTAMP = "2026-11-27T09:00:00Z";
const BODY = '{"ticketId":3001,"subject":"Charger broken"}';
const BY_OPENSSL = "v6Ukxb0ZO+e8eHEB5J6cy75NczYaux0kwHuwSoXAIL4=";

const headers = (signature: string, timestamp = TIMESTAMP) =>
  new Headers({ [ZENDESK_SIGNATURE_HEADER]: signature, [ZENDESK_TIMESTAMP_HEADER]: timestamp });
const check = (signature: string, body = BODY) =>
  verifyZendeskSignature({ secret: SECRET, headers: headers(signature), body, toleranceSeconds: 300, now: new Date(TIMESTAMP) });

describe("Zendesk's webhook signature", () => {
  it("is the one an independent HMAC gives for the timestamp and the raw body", () => {
    expect(zendeskSignature(SECRET, TIMESTAMP, BODY)).toBe(BY_OPENSSL);
    expect(check(BY_OPENSSL)).toEqual({ ok: true });
  });

  it("refuses the same signature over another body, another secret's, and one with a separator Zendesk does not use", () => {
    expect(check(BY_OPENSSL, BODY.replace("3001", "3002")).ok).toBe(false);
    expect(check(zendeskSignature("another-secret", TIMESTAMP, BODY)).ok).toBe(false);
    expect(check(zendeskSignature(SECRET, `${TIMESTAMP}.`, BODY)).ok).toBe(false);
  });
});
