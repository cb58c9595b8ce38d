// Which origins may call the app's server actions. A server action is a POST that carries the
// caller's session cookie, so a page on another site could make a signed-in reviewer's browser send
// one (cross-site request forgery); the browser's Origin header says which page sent it. proxy.ts
// answers every refused call with 403 before Next.js sees it.
//
// Allowed: the origins configured (APP_URL, ALLOWED_ORIGINS), compared whole – scheme, host and port.
// With none configured, the host the request was addressed to: the Host header, or X-Forwarded-Host
// when a trusted proxy set it. lib/http/forwarded.ts has already dropped any X-Forwarded-* a client
// wrote itself (TRUST_PROXY=0), so a forged X-Forwarded-Host never reaches this comparison. Without a
// trusted proxy the server cannot know the scheme the browser used, so that comparison is of hosts,
// as Next's own check is.

export interface THeaderReader {
  get(name: string): string | null;
}

export type TOriginRefusal = "missing_origin" | "foreign_origin";

export type TOriginCheck =
  { kind: "not_an_action" } | { kind: "allowed" } | { kind: "refused"; reason: TOriginRefusal; origin: string | null };

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Whether a request may run a server action. Called from JavaScript, an action carries the
 * Next-Action header; a form posted before JavaScript loaded carries the action's id in its body
 * instead, so every unsafe request to a page counts. Route handlers under /api are not actions: the
 * machine routes authenticate each request by signature, next-auth checks its own CSRF token.
 */
export function isServerActionRequest(request: { method: string; pathname: string; headers: THeaderReader }): boolean {
  // Next runs actions only on POST; a safe method changes nothing whatever its headers say.
  if (SAFE_METHODS.has(request.method.toUpperCase())) return false;
  if (request.headers.get("next-action") !== null) return true;
  return !(request.pathname === "/api" || request.pathname.startsWith("/api/"));
}

/** An origin in its canonical form (lower case, default port dropped), or null when it is not one. */
export function canonicalOrigin(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  return url.origin;
}

/** A configured origin (scheme://host[:port], a trailing slash allowed) in canonical form; null for anything with a path, query or credentials. */
export function parseOriginSetting(value: string): string | null {
  const origin = canonicalOrigin(value);
  if (!origin) return null;
  const url = new URL(value);
  return url.pathname === "/" && !url.search && !url.hash && !url.username && !url.password && !value.endsWith("?") && !value.endsWith("#")
    ? origin
    : null;
}

function canonicalHost(value: string | null): string | null {
  if (!value) return null;
  try {
    return new URL(`http://${value}`).host;
  } catch {
    return null;
  }
}

export function checkActionOrigin(request: {
  method: string;
  pathname: string;
  headers: THeaderReader;
  allowedOrigins: readonly string[];
}): TOriginCheck {
  if (!isServerActionRequest(request)) return { kind: "not_an_action" };
  const sent = request.headers.get("origin");
  // Every browser sends Origin with a POST; "null" comes from sandboxed frames and opaque redirects.
  if (!sent || sent === "null") return { kind: "refused", reason: "missing_origin", origin: sent };
  const origin = canonicalOrigin(sent);
  if (!origin) return { kind: "refused", reason: "foreign_origin", origin: sent };
  if (request.allowedOrigins.length > 0) {
    return request.allowedOrigins.includes(origin) ? { kind: "allowed" } : { kind: "refused", reason: "foreign_origin", origin };
  }
  const addressed = canonicalHost(request.headers.get("x-forwarded-host") ?? request.headers.get("host"));
  return addressed !== null && new URL(origin).host === addressed
    ? { kind: "allowed" }
    : { kind: "refused", reason: "foreign_origin", origin };
}
