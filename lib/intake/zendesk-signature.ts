// Zendesk's webhook signature: X-Zendesk-Webhook-Signature is the base64 HMAC-SHA256, keyed with the
// webhook's signing secret, of X-Zendesk-Webhook-Signature-Timestamp followed by the raw body
// (https://developer.zendesk.com/documentation/webhooks/verifying/). Not the Standard Webhooks scheme
// the intake API uses, so Zendesk needs no relay. Replay: the timestamp must be within the tolerance of
// the server's clock; inside the window a replayed delivery finds its ticket (idempotent on the
// Zendesk ticket id) and changes nothing.
import { createHmac } from "node:crypto";
import { constantTimeEqual } from "../contracts/signatures";

export const ZENDESK_SIGNATURE_HEADER = "x-zendesk-webhook-signature";
export const ZENDESK_TIMESTAMP_HEADER = "x-zendesk-webhook-signature-timestamp";

export function zendeskSignature(secret: string, timestamp: string, body: string): string {
  return createHmac("sha256", secret)
    .update(timestamp + body)
    .digest("base64");
}

export type TZendeskVerdict = { ok: true } | { ok: false; message: string };

export function verifyZendeskSignature(input: {
  secret: string;
  headers: { get(name: string): string | null };
  body: string;
  toleranceSeconds: number;
  now?: Date;
}): TZendeskVerdict {
  const signature = input.headers.get(ZENDESK_SIGNATURE_HEADER);
  const timestamp = input.headers.get(ZENDESK_TIMESTAMP_HEADER);
  if (!signature || !timestamp)
    return { ok: false, message: `Sign the delivery: ${ZENDESK_SIGNATURE_HEADER} and ${ZENDESK_TIMESTAMP_HEADER}.` };
  // Zendesk sends an ISO 8601 time (2026-11-27T09:00:00Z).
  const at = Date.parse(timestamp);
  const now = (input.now ?? new Date()).getTime();
  if (!Number.isFinite(at) || Math.abs(now - at) > input.toleranceSeconds * 1000)
    return { ok: false, message: `${ZENDESK_TIMESTAMP_HEADER} must be within ${input.toleranceSeconds} seconds of the server's clock.` };
  if (!constantTimeEqual(signature.trim(), zendeskSignature(input.secret, timestamp, input.body)))
    return { ok: false, message: `${ZENDESK_SIGNATURE_HEADER} does not match: base64 HMAC-SHA256 of the timestamp and the raw body.` };
  return { ok: true };
}
