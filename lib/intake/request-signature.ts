// Signed reads by the helpdesk (GET /api/outbox, GET /api/audit/checkpoints): an HMAC over the
// timestamp, the method and the path with its query, with an intake secret in rotation. The timestamp
// bounds replay to a five-minute window.
import { constantTimeEqual, hmacSha256Hex } from "../contracts/signatures";

export const TIMESTAMP_HEADER = "x-countersign-timestamp";
export const REQUEST_SIGNATURE_HEADER = "x-countersign-signature";
export const MAX_SKEW_SECONDS = 300;

export function signRequest(input: { secret: string; timestamp: number; method: string; pathAndQuery: string }): string {
  return `sha256=${hmacSha256Hex(input.secret, `${input.timestamp}\n${input.method.toUpperCase()}\n${input.pathAndQuery}`)}`;
}

export function verifySignedRequest(input: {
  secret: string;
  method: string;
  pathAndQuery: string;
  timestamp: string | null;
  signature: string | null;
  now?: Date;
}): boolean {
  if (!input.timestamp || !input.signature || !/^\d{1,12}$/.test(input.timestamp)) return false;
  const timestamp = Number(input.timestamp);
  if (Math.abs((input.now ?? new Date()).getTime() / 1000 - timestamp) > MAX_SKEW_SECONDS) return false;
  return constantTimeEqual(
    input.signature.trim(),
    signRequest({ secret: input.secret, timestamp, method: input.method, pathAndQuery: input.pathAndQuery }),
  );
}

/** The secret in rotation (newest first) that signed the request, or null when none did or it is stale. */
export function signingSecret(input: {
  secrets: readonly string[];
  method: string;
  pathAndQuery: string;
  timestamp: string | null;
  signature: string | null;
  now?: Date;
}): string | null {
  const { secrets, ...request } = input;
  return secrets.find((secret) => verifySignedRequest({ ...request, secret })) ?? null;
}
