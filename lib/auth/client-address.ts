// Which address a sign-in attempt came from, for the per-address throttle.

/**
 * The client's address from the forwarded headers. Next.js fills X-Forwarded-For with the socket's
 * address only when the request has none, so the last entry is the one the nearest hop saw: right
 * behind one reverse proxy, the real client. Exposed directly, a client can write the header
 * itself; the per-account limit does not depend on it.
 */
export function clientAddress(headers: Headers): string | null {
  const forwarded = headers.get("x-forwarded-for");
  const last = forwarded?.split(",").map((s) => s.trim()).filter(Boolean).pop();
  const candidate = last ?? headers.get("x-real-ip")?.trim();
  if (!candidate || candidate.length > 64) return null;
  // IPv4-mapped IPv6 (::ffff:127.0.0.1) is the same client as its IPv4 form.
  return candidate.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, "$1");
}
