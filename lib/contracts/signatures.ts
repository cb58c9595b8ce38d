// HMAC-SHA256 and the one constant-time comparison every signature and secret check goes through:
// route signatures, the helpdesk's signed requests, the intake API's body signature, passwords.
import { createHmac, timingSafeEqual } from "node:crypto";

/** HMAC-SHA256 of a message with a key, as lowercase hex. */
export function hmacSha256Hex(key: string, message: string | Buffer): string {
  return createHmac("sha256", key).update(message).digest("hex");
}

/** Whether two values are equal, compared in constant time. Lengths are not secret (every signature
 * of a kind has the same length), so a length mismatch answers false at once. */
export function constantTimeEqual(given: string | Buffer, expected: string | Buffer): boolean {
  const a = typeof given === "string" ? Buffer.from(given) : given;
  const b = typeof expected === "string" ? Buffer.from(expected) : expected;
  return a.length === b.length && timingSafeEqual(a, b);
}
