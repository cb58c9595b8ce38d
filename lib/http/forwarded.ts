// Which client a request came from, and which host and scheme it was addressed to, decided once where
// the request enters the process (lib/observability/http-requests.ts calls normaliseForwarded before
// Next.js sees the request). Everything downstream – the sign-in throttle's address, Next's server
// action origin check, the proxy's origin check – reads the headers this leaves, so there is one
// answer to "who is this", not one per reader.
//
// TRUST_PROXY is how many reverse proxies stand in front of the app. With none (the default) the
// socket's address is the client and any X-Forwarded-* a client wrote is dropped: a client cannot
// choose the address it is throttled under, nor the host its Origin is compared with. With N, the
// N-th address from the right of `X-Forwarded-For, <socket>` is the client (each trusted proxy
// appends the address it saw), and the last trusted proxy's X-Forwarded-Host and -Proto are honoured.
import type { IncomingHttpHeaders } from "node:http";

export const FORWARDED_HEADERS = [
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-port",
  "x-real-ip",
  "forwarded",
] as const;

export interface TForwarded {
  /** The client's address as this server can know it. */
  clientAddress: string | null;
  /** The host the client addressed, when a trusted proxy says so; otherwise the Host header stands. */
  host: string | null;
  /** The scheme the client used, when a trusted proxy says so. */
  proto: "http" | "https" | null;
}

function listOf(value: string | string[] | undefined): string[] {
  const joined = Array.isArray(value) ? value.join(",") : (value ?? "");
  return joined
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** IPv4-mapped IPv6 (::ffff:127.0.0.1) is the same client as its IPv4 form. */
export function normaliseAddress(address: string | null | undefined): string | null {
  const trimmed = address?.trim();
  if (!trimmed || trimmed.length > 64) return null;
  return trimmed.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, "$1");
}

/** Pure: what the request's socket and headers say, given how many proxies are trusted. */
export function resolveForwarded(input: {
  socketAddress: string | null | undefined;
  headers: IncomingHttpHeaders;
  trustedHops: number;
}): TForwarded {
  const socket = normaliseAddress(input.socketAddress);
  if (input.trustedHops <= 0) return { clientAddress: socket, host: null, proto: null };
  const chain = [...listOf(input.headers["x-forwarded-for"]), ...(socket ? [socket] : [])];
  // The socket is hop 0 (the nearest proxy); each trusted hop vouches for the entry to its left.
  // Fewer entries than trusted hops: the leftmost is as far as anyone vouched.
  const index = Math.max(0, chain.length - 1 - input.trustedHops);
  const host = listOf(input.headers["x-forwarded-host"]).pop() ?? null;
  const proto = listOf(input.headers["x-forwarded-proto"]).pop()?.toLowerCase();
  return {
    clientAddress: normaliseAddress(chain[index]),
    host: host && /^[a-z0-9.\-:[\]]{1,255}$/i.test(host) ? host : null,
    proto: proto === "http" || proto === "https" ? proto : null,
  };
}

/**
 * Rewrites the request's forwarded headers to what resolveForwarded decided: X-Forwarded-For holds
 * exactly the client's address, X-Forwarded-Host and -Proto are kept only when a trusted proxy set
 * them, and the rest are removed. Next.js fills in what is missing from the socket and Host header.
 */
export function normaliseForwarded(
  req: { headers: IncomingHttpHeaders; socket?: { remoteAddress?: string } | null },
  trustedHops: number,
): TForwarded {
  const resolved = resolveForwarded({ socketAddress: req.socket?.remoteAddress, headers: req.headers, trustedHops });
  for (const name of FORWARDED_HEADERS) delete req.headers[name];
  if (resolved.clientAddress) req.headers["x-forwarded-for"] = resolved.clientAddress;
  if (resolved.host) req.headers["x-forwarded-host"] = resolved.host;
  if (resolved.proto) req.headers["x-forwarded-proto"] = resolved.proto;
  return resolved;
}
