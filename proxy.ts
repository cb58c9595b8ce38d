// The first gate (Next 16's proxy, formerly middleware; Node.js runtime). It sees every request but
// static assets, and every request that could run a server action whatever its path (the matcher at
// the end). For each:
// 1. Server actions from a page of another origin are refused with 403 before Next runs them
//    (lib/http/action-origin.ts; allowed origins from APP_URL / ALLOWED_ORIGINS).
// 2. A fresh nonce and the Content-Security-Policy built on it go on the response and on the request
//    Next renders from (Next stamps the nonce on its own scripts; lib/http/security-headers.ts). The
//    headers that need no nonce come from next.config.mjs, for every response.
// 3. It decodes the session cookie with the light next-auth config – no database – and sends
//    signed-out visitors to /signin, except on PUBLIC_PATHS (lib/auth/public-paths.ts). A cookie
//    whose token is younger than SESSION_REISSUE_SECONDS is read and passed as it is; any other
//    request goes through next-auth's auth(), which reissues the token with a new expiry (the
//    cookie rolls while in use) or answers for a cookie that does not decrypt.
// It is not the only gate: every page calls requireRole, every action goes through authedAction,
// every route through authedRoute (or its signature check), and those re-check the user row, so a
// revoked session that still has a valid cookie passes here and is stopped there.
import NextAuth from "next-auth";
import { NextResponse, type NextFetchEvent, type NextRequest } from "next/server";
import { ERROR_CODES } from "@/lib/contracts/app-error";
import { resultToHttp } from "@/lib/auth/action-result";
import { lightAuthConfig } from "@/lib/auth/auth.config";
import { proxyDecision } from "@/lib/auth/public-paths";
import { needsReissue, sessionOf } from "@/lib/auth/session-cookie";
import { authSecret, env } from "@/lib/env";
import { checkActionOrigin } from "@/lib/http/action-origin";
import { STRICT_TRANSPORT_SECURITY, contentSecurityPolicy, newNonce } from "@/lib/http/security-headers";
import { logger } from "@/lib/observability/logger";

// The configuration is a function so the secret is read on the first request, not at build time.
// With a function configuration next-auth's `auth(handler)` hands back a Promise of the wrapped
// handler (its types say a function), hence the await below; awaiting a plain function is harmless.
const { auth } = NextAuth(lightAuthConfig);

type THandler = (request: NextRequest, event: NextFetchEvent) => Promise<Response>;

/** The session gate; `forward` is the request Next renders from (with this response's nonce). */
function guarded(forward: Headers): Promise<THandler> {
  return auth((request) => {
    const decision = proxyDecision({
      pathname: request.nextUrl.pathname,
      search: request.nextUrl.search,
      signedIn: typeof request.auth?.user?.id === "string",
      // Server action calls carry this header; the action's own wrapper answers "unauthenticated".
      serverAction: request.headers.has("next-action"),
    });
    if (decision.kind === "redirect") return NextResponse.redirect(new URL(decision.location, request.nextUrl));
    if (decision.kind === "unauthenticated") return NextResponse.json({ error: "unauthenticated" }, { status: 401 });
    return NextResponse.next({ request: { headers: forward } });
  }) as unknown as Promise<THandler>;
}

export async function proxy(request: NextRequest, event: NextFetchEvent): Promise<Response> {
  const settings = env();
  const https = request.headers.get("x-forwarded-proto") === "https" || settings.APP_URL?.toLowerCase().startsWith("https:") === true;
  const nonce = newNonce();
  const policy = contentSecurityPolicy({ nonce, development: process.env.NODE_ENV === "development", https });
  const secure = (response: Response): Response => {
    response.headers.set("Content-Security-Policy", policy);
    if (https) response.headers.set("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY);
    return response;
  };

  const origin = checkActionOrigin({
    method: request.method,
    pathname: request.nextUrl.pathname,
    headers: request.headers,
    allowedOrigins: settings.allowedOrigins,
  });
  if (origin.kind === "refused") {
    logger.warn(
      { origin: origin.origin?.slice(0, 200) ?? null, reason: origin.reason, path: request.nextUrl.pathname },
      "Refused a server action from another origin",
    );
    const message = ERROR_CODES.foreign_origin.meaning;
    const answer = resultToHttp({ status: "error", code: "foreign_origin", message });
    return secure(NextResponse.json(answer.body, { status: answer.status }));
  }

  // Next reads the nonce from the request's Content-Security-Policy; x-nonce is for the app's own
  // components (none needs one today: the app has no inline script of its own).
  const forward = new Headers(request.headers);
  forward.set("x-nonce", nonce);
  forward.set("content-security-policy", policy);

  // Server actions answer for themselves (authedAction re-checks the session and the role). Running
  // next-auth's wrapper on them would also refresh the session cookie on the very response whose
  // sign-out clears it, and the refreshed cookie would win: the person would stay signed in.
  if (request.headers.has("next-action")) return secure(NextResponse.next({ request: { headers: forward } }));
  // next-auth re-encrypts the token on every request it sees (a key derivation, a cipher, a MAC, a
  // 900-byte Set-Cookie); within its reissue interval the same cookie stands (the page re-checks the
  // session's row either way).
  const session = await sessionOf({ headers: request.headers, secret: authSecret(), quiet: true });
  if (!needsReissue(session, Math.floor(Date.now() / 1000))) return secure(NextResponse.next({ request: { headers: forward } }));
  return secure(await (await guarded(forward))(request, event));
}

export const config = {
  // Static files never need a session or a nonce: Next's build output, image optimisation, and
  // public/ assets by extension (next.config.mjs gives them the other security headers). Everything
  // else goes through the proxy – and so does every request that could run a server action, whatever
  // its path looks like: Next runs an action posted to any page's path, /tickets/x.png included
  // (the dynamic page /tickets/[id]), so the origin rule cannot depend on the path. Next treats a POST
  // as an action when it has a Next-Action header, or a multipart or URL-encoded form body
  // (a form posted before JavaScript loaded); `has` values match the whole header.
  matcher: [
    "/((?!_next/static|_next/image|favicon\\.ico|.*\\.(?:svg|png|jpg|jpeg|gif|webp|avif|ico|txt|xml|woff|woff2|map)$).*)",
    { source: "/:path*", has: [{ type: "header", key: "next-action" }] },
    { source: "/:path*", has: [{ type: "header", key: "content-type", value: "multipart/form-data.*" }] },
    { source: "/:path*", has: [{ type: "header", key: "content-type", value: "application/x-www-form-urlencoded" }] },
  ],
};
