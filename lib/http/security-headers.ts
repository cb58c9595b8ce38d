// The headers that tell a browser what a page may do: which scripts run, who may frame it, what it may
// send on. Pure functions: proxy.ts calls them for every request it sees (a fresh nonce each time),
// next.config.mjs sets the same static headers on the responses the proxy never sees (build output,
// images), and the tests read the policy from here.
//
// Script policy: only scripts carrying this request's nonce run, and whatever they load
// ('strict-dynamic': Next's bootstrap loads its chunks). Next.js reads the nonce from the request's
// Content-Security-Policy header and puts it on every script it renders, which it can only do while
// rendering – so every page renders per request (app/layout.tsx). An injected <script> or inline
// handler has no nonce and does not run. No 'unsafe-inline' or 'unsafe-eval' for scripts, except
// 'unsafe-eval' under `next dev`, whose React tooling needs it.
//
// Styles may be inline: React's style={{…}} attributes (bars, charts) and Radix's injected <style>
// carry no nonce, and a style cannot run code. A nonce in style-src would disable 'unsafe-inline'.
import { randomBytes } from "node:crypto";

/** A fresh, unguessable nonce for one response (128 bits, base64 as CSP expects). */
export function newNonce(): string {
  return randomBytes(16).toString("base64");
}

export interface TPolicyInput {
  nonce: string;
  /** `next dev`: React's dev tooling evaluates code; never in a production build. */
  development?: boolean;
  /** The page was served over https: ask the browser to upgrade any http subresource. */
  https?: boolean;
}

/** The Content-Security-Policy header's value for one response. */
export function contentSecurityPolicy({ nonce, development = false, https = false }: TPolicyInput): string {
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": [`'nonce-${nonce}'`, "'strict-dynamic'", "'self'", ...(development ? ["'unsafe-eval'"] : [])],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'self'"],
    // Nobody may frame a page: a framed ticket page would put a live Approve button under someone
    // else's clicks.
    "frame-ancestors": ["'none'"],
  };
  const parts = Object.entries(directives).map(([name, values]) => `${name} ${values.join(" ")}`);
  if (https) parts.push("upgrade-insecure-requests");
  return parts.join("; ");
}

/** Two years, subdomains included: what browsers' preload lists ask for. */
export const STRICT_TRANSPORT_SECURITY = "max-age=63072000; includeSubDomains";

/**
 * The headers every response carries, whatever it is (next.config.mjs sets them on all paths, the
 * proxy's own answers included). Kept in step with next.config.mjs by security-headers.test.ts.
 */
export const STATIC_SECURITY_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  // Paths name tickets and approvals: they never leave the site, not even as a Referer.
  "Referrer-Policy": "same-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), hid=(), bluetooth=(), browsing-topics=()",
  // frame-ancestors for browsers that predate it.
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
} as const;
