// The full next-auth setup: the light config plus the Credentials provider, which checks the User
// table under the sign-in throttle. Used by the /api/auth route and the sign-in and sign-out actions;
// pages, actions and routes read the session through currentUser (session.ts).
import "server-only";
import { Auth, setEnvDefaults as setAuthEnvDefaults } from "@auth/core";
import NextAuth, { AuthError, CredentialsSignin, type NextAuthConfig } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { headers } from "next/headers";
import type { NextRequest } from "next/server";
import { z } from "zod";
import { authSecret, env } from "../env";
import { logger } from "../observability/logger";
import { authConfig, tokenUser } from "./auth.config";
import { clientAddress } from "./client-address";
import { verifySignIn } from "./credentials";
import { endSession } from "./end-session";
import { loadSessionUser } from "./load-session-user";
import { oidcConnection, type TOidcConnection } from "./oidc-settings";
import { signInWithOidc } from "./sign-in-with-oidc";
import { SIGN_IN_PATH } from "./public-paths";
import { sessionUserOf } from "./session-cookie";
import { throttleLimits } from "./throttle";

/** Unknown email, wrong password or inactive account: one answer for all three. */
export class InvalidCredentials extends CredentialsSignin {
  code = "invalid_credentials";
}

/** This account from this address, or the address, is locked after too many failures. */
export class SignInLocked extends CredentialsSignin {
  code = "locked";
  constructor(readonly retryAfterMinutes: number) {
    super(`Sign-in locked for ${retryAfterMinutes} minute(s)`);
  }
}

/** Too many password checks running and waiting in this process; nothing was counted. */
export class SignInBusy extends CredentialsSignin {
  code = "busy";
}

/** The right password, but the admin requires the identity provider for this account. */
export class SignInSsoRequired extends CredentialsSignin {
  code = "sso_required";
}

/** The OpenID Connect provider's id in next-auth's routes: /api/auth/signin/oidc, /api/auth/callback/oidc. */
export const OIDC_PROVIDER_ID = "oidc";

/**
 * The identity provider for Auth.js: discovery from the issuer (whose answer must name that issuer),
 * the code flow with state, PKCE and a nonce, and the ID token's claims as the profile. Who the
 * person is here is decided in the signIn callback (signInWithOidc).
 */
function oidcProvider(connection: TOidcConnection) {
  return {
    id: OIDC_PROVIDER_ID,
    name: connection.name,
    type: "oidc" as const,
    issuer: connection.issuer,
    clientId: connection.clientId,
    clientSecret: connection.clientSecret,
    checks: ["pkce", "state", "nonce"] as ("pkce" | "state" | "nonce")[],
    authorization: { params: { scope: "openid email profile" } },
    profile: (claims: Record<string, unknown>) => ({
      id: String(claims.sub),
      email: typeof claims.email === "string" ? claims.email : null,
      name: typeof claims.name === "string" ? claims.name : null,
    }),
  };
}

const ZCredentials = z.object({ email: z.string(), password: z.string() });

/** The whole configuration, for next-auth's functions and for the /api/auth route (authRoute). */
function authOptions(request: NextRequest | undefined): NextAuthConfig {
  const connection = oidcConnection(env());
  return {
    ...authConfig,
    secret: authSecret(),
    callbacks: {
      ...authConfig.callbacks,
      // A sign-in through the identity provider: the protocol's checks passed; whether and as whom the
      // person signs in here is signInWithOidc's. A refusal goes back to the sign-in page with its code.
      async signIn({ user, account, profile }) {
        if (account?.provider !== OIDC_PROVIDER_ID) return true;
        if (!connection || !profile) return false;
        const outcome = await signInWithOidc({
          claims: profile as Record<string, unknown>,
          connection,
          address: request ? clientAddress(request.headers) : null,
          userAgent: request?.headers.get("user-agent") ?? null,
          now: new Date(),
        });
        if (outcome.status === "refused") {
          logger.warn({ code: outcome.code }, `auth: identity provider sign-in refused (${outcome.code})`);
          return `${SIGN_IN_PATH}?error=OidcRefused&code=${outcome.code}`;
        }
        // next-auth hands this same object to the jwt callback, which copies the session's fields.
        Object.assign(user, outcome.user);
        return true;
      },
      // next-auth's own session endpoint (GET /api/auth/session) answers from the token alone, and
      // re-encrypts it with a later expiry: a revoked session would read as signed in there and have
      // its cookie refreshed. Here (this configuration serves /api/auth, never the proxy) a token whose
      // session no longer counts is answered null and its cookie cleared.
      async jwt(params) {
        const token = authConfig.callbacks.jwt(params);
        if (params.user) return token;
        const claims = tokenUser(token);
        if (!claims) return null;
        return (await loadSessionUser({ claims, now: new Date() })) ? token : null;
      },
    },
    events: {
      // Sign-out through next-auth's own endpoint (POST /api/auth/signout) revokes the session too.
      // next-auth only logs a failure here and clears the cookie regardless, so the app's sign-out
      // (signOutSession) revokes first, where a failure stops the sign-out instead.
      async signOut(message) {
        const claims = "token" in message && message.token ? tokenUser(message.token) : null;
        if (claims) await endSession({ sessionId: claims.sessionId, userId: claims.id, now: new Date() });
      },
    },
    providers: [
      Credentials({
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(raw, request) {
          const parsed = ZCredentials.safeParse(raw);
          if (!parsed.success) throw new InvalidCredentials();
          const outcome = await verifySignIn({
            email: parsed.data.email,
            password: parsed.data.password,
            address: clientAddress(request.headers),
            userAgent: request.headers.get("user-agent"),
            now: new Date(),
            limits: throttleLimits(),
          });
          if (outcome.status === "locked") throw new SignInLocked(outcome.retryAfterMinutes);
          if (outcome.status === "busy") throw new SignInBusy();
          if (outcome.status === "sso_required") throw new SignInSsoRequired();
          if (outcome.status !== "ok") throw new InvalidCredentials();
          return outcome.user;
        },
      }),
      ...(connection ? [oidcProvider(connection)] : []),
    ],
  };
}

export const { auth, signIn, signOut } = NextAuth(authOptions);

/** Where next-auth's routes live (app/api/auth/[...nextauth]). */
const AUTH_BASE_PATH = "/api/auth";

/**
 * The request as the browser made it, for Auth.js: AUTH_URL's origin (when set) with the request's
 * path. Not a NextRequest: Next rewrites a loopback host (127.0.0.1, [::1]) to "localhost" in every
 * NextRequest's URL, next-auth's own route handler included, while the sign-in button's server action
 * builds its URL from AUTH_URL as written. An app served at http://127.0.0.1:3000 then sent the
 * browser to the provider with one redirect URI and exchanged the code with another (the provider
 * refused it: invalid_grant, "redirect_uri mismatch"), and sent the signed-in person on to localhost,
 * where their cookies are not.
 */
function asBrowserMadeIt(request: NextRequest): Request {
  const publicUrl = process.env.AUTH_URL ?? process.env.NEXTAUTH_URL;
  if (!publicUrl) return request;
  const asSeen = new URL(request.url);
  const url = new URL(asSeen.pathname + asSeen.search, new URL(publicUrl).origin);
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  return new Request(url, {
    method: request.method,
    headers: request.headers,
    body: hasBody ? request.body : undefined,
    signal: request.signal,
    // Node's fetch needs this to send a streamed body.
    ...(hasBody ? { duplex: "half" } : {}),
  } as RequestInit);
}

/** The /api/auth route: next-auth's handler, as next-auth builds it, given the browser's URL. */
async function authRoute(request: NextRequest): Promise<Response> {
  const config = { ...authOptions(request), basePath: AUTH_BASE_PATH };
  setAuthEnvDefaults(process.env, config, true);
  return Auth(asBrowserMadeIt(request), config);
}

export const handlers = { GET: authRoute, POST: authRoute };

/** Why a password sign-in was refused; on success next-auth redirects (it throws Next's redirect). */
export type TSignInRefusal =
  { refused: "invalid_credentials" } | { refused: "locked"; retryAfterMinutes: number } | { refused: "busy" } | { refused: "sso_required" };

/**
 * Signs in with email and password through next-auth and answers a refusal as a value, so the form's
 * action needs no error handling of its own. Success, and anything unexpected, propagate: success is
 * next-auth's redirect, which must reach Next.
 */
export async function signInWithPassword(input: { email: string; password: string; redirectTo: string }): Promise<TSignInRefusal> {
  try {
    await signIn("credentials", input);
  } catch (error) {
    if (error instanceof SignInLocked) return { refused: "locked", retryAfterMinutes: error.retryAfterMinutes };
    if (error instanceof SignInBusy) return { refused: "busy" };
    if (error instanceof SignInSsoRequired) return { refused: "sso_required" };
    if (error instanceof AuthError) return { refused: "invalid_credentials" };
    throw error;
  }
  // next-auth redirects on success; a sign-in that returns without one did not start a session.
  return { refused: "invalid_credentials" };
}

/**
 * Signs this request's session out: its row is revoked on the server first (so a copy of the cookie
 * is refused from now on, on every instance), then next-auth clears the cookie and redirects. A
 * failure to revoke throws before the cookie is cleared: the person is not told they are signed out
 * while their session still counts. Without a session (expired, revoked, none) it only clears.
 */
export async function signOutSession(redirectTo: string): Promise<void> {
  const session = await sessionUserOf({ headers: await headers(), secret: authSecret() });
  if (session) await endSession({ sessionId: session.sessionId, userId: session.id, now: new Date() });
  await signOut({ redirectTo });
}
