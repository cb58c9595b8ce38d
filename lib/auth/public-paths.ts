// Which paths a signed-out visitor may reach, and what the proxy does with everyone else. Pure
// functions, shared by proxy.ts and its tests. The proxy is only the first gate: every page, action
// and route handler checks the session and the role again (requireRole, authedAction, authedRoute).

/**
 * Paths open without a session. Each entry matches itself and everything below it
 * ("/api/auth" matches "/api/auth/session", not "/api/authority").
 * - /signin: the sign-in form and its server action.
 * - /set-password: a set-password link's page and its action; the link's token is the credential.
 * - /api/health: probes from load balancers and `npm start`.
 * - /api/auth: next-auth's own endpoints (session, csrf, sign-out).
 * - /api/intake, /api/outbox, /api/audit/checkpoints, /api/orders, /api/customers: machine callers
 *   that authenticate each request by an HMAC signature.
 * - /api/payments/stripe: Stripe's events, each verified by its Stripe-Signature.
 * - /api/helpdesk: Zendesk's webhook (its own signature) and an email service's (signed like intake).
 * - /api/evals/receipts: `npm run eval` storing its receipt through the server, signed with EVAL_SECRET.
 * Static assets never reach the proxy at all (see the matcher in proxy.ts).
 */
export const PUBLIC_PATHS = [
  "/signin",
  "/set-password",
  "/api/health",
  "/api/auth",
  "/api/intake",
  "/api/outbox",
  "/api/audit/checkpoints",
  "/api/orders",
  "/api/customers",
  "/api/payments/stripe",
  "/api/helpdesk",
  "/api/evals/receipts",
] as const;

export const SIGN_IN_PATH = "/signin";

export function isPublicPath(pathname: string): boolean {
  return PUBLIC_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`));
}

export type TProxyDecision = { kind: "next" } | { kind: "redirect"; location: string } | { kind: "unauthenticated" };

/**
 * What the proxy does with one request.
 * - Public paths and signed-in visitors pass.
 * - Server action calls pass: the action runs through authedAction, which answers
 *   `{ status: "unauthenticated" }` – a redirect would hand the action's fetch an HTML page.
 * - Signed-out API calls get a 401 (a redirect to a form means nothing to a script).
 * - Signed-out page visits go to /signin, remembering where they were headed.
 */
export function proxyDecision(request: { pathname: string; search: string; signedIn: boolean; serverAction: boolean }): TProxyDecision {
  if (request.signedIn || isPublicPath(request.pathname) || request.serverAction) return { kind: "next" };
  if (request.pathname === "/api" || request.pathname.startsWith("/api/")) return { kind: "unauthenticated" };
  const target = request.pathname + request.search;
  const query = target === "/" ? "" : `?${new URLSearchParams({ callbackUrl: target })}`;
  return { kind: "redirect", location: `${SIGN_IN_PATH}${query}` };
}

/**
 * Where to send someone after signing in: only a path on this site. Anything else – another origin,
 * a protocol-relative "//host" or "/\host", the sign-in page itself – becomes "/".
 */
export function safeCallbackUrl(value: unknown): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 2048) return "/";
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return "/";
  let url: URL;
  try {
    url = new URL(value, "http://countersign.invalid");
  } catch {
    return "/";
  }
  if (url.origin !== "http://countersign.invalid") return "/";
  if (url.pathname === SIGN_IN_PATH || url.pathname.startsWith(`${SIGN_IN_PATH}/`)) return "/";
  return url.pathname + url.search + url.hash;
}
