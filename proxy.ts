// The first gate (Next 16's proxy, formerly middleware; Node.js runtime). It decodes the session
// cookie with the light next-auth config – no database – and sends signed-out visitors to /signin,
// except on PUBLIC_PATHS (lib/auth/public-paths.ts). It is not the only gate: every page calls
// requireRole, every action goes through authedAction, every route through authedRoute (or its
// signature check), and those re-check the user row, so a revoked session that still has a valid
// cookie passes here and is stopped there.
import NextAuth from "next-auth";
import { NextResponse, type NextFetchEvent, type NextRequest } from "next/server";
import { lightAuthConfig } from "@/lib/auth/auth.config";
import { proxyDecision } from "@/lib/auth/public-paths";

// The configuration is a function so the secret is read on the first request, not at build time.
// With a function configuration next-auth's `auth(handler)` hands back a Promise of the wrapped
// handler (its types say a function), hence the await below; awaiting a plain function is harmless.
const { auth } = NextAuth(lightAuthConfig);

const guarded = auth((request) => {
  const decision = proxyDecision({
    pathname: request.nextUrl.pathname,
    search: request.nextUrl.search,
    signedIn: typeof request.auth?.user?.id === "string",
    // Server action calls carry this header; the action's own wrapper answers "unauthenticated".
    serverAction: request.headers.has("next-action"),
  });
  if (decision.kind === "redirect") return NextResponse.redirect(new URL(decision.location, request.nextUrl));
  if (decision.kind === "unauthenticated") return NextResponse.json({ error: "unauthenticated" }, { status: 401 });
  return NextResponse.next();
}) as unknown as Promise<(request: NextRequest, event: NextFetchEvent) => Promise<Response>>;

export async function proxy(request: NextRequest, event: NextFetchEvent): Promise<Response> {
  // Server actions answer for themselves (authedAction re-checks the session and the role). Running
  // next-auth's wrapper on them would also refresh the session cookie on the very response whose
  // sign-out clears it, and the refreshed cookie would win: the person would stay signed in.
  if (request.headers.has("next-action")) return NextResponse.next();
  return (await guarded)(request, event);
}

export const config = {
  // Static files never need a session: Next's build output, image optimisation, and public/ assets
  // by extension. Everything else goes through proxyDecision.
  matcher: ["/((?!_next/static|_next/image|favicon\\.ico|.*\\.(?:svg|png|jpg|jpeg|gif|webp|avif|ico|txt|xml|woff|woff2|map)$).*)"],
};
