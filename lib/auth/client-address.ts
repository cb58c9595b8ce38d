// Which address a sign-in attempt came from, for the per-address throttle.
import { normaliseAddress } from "../http/forwarded";

/**
 * The client's address. Where the request entered the process, lib/http/forwarded.ts left exactly
 * one address in X-Forwarded-For – the socket's, or with TRUST_PROXY the one the trusted proxies
 * vouch for – so whatever a client wrote in that header itself has already been dropped.
 */
export function clientAddress(headers: Headers): string | null {
  const forwarded = headers.get("x-forwarded-for");
  return normaliseAddress(
    forwarded
      ?.split(",")
      .map((s) => s.trim())
      .filter(Boolean)
      .pop(),
  );
}
