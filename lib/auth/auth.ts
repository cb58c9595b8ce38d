// The full next-auth setup: the light config plus the Credentials provider, which checks the User
// table under the sign-in throttle. Used by the /api/auth route and the sign-in and sign-out actions;
// pages, actions and routes read the session through currentUser (session.ts).
import "server-only";
import NextAuth, { AuthError, CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { headers } from "next/headers";
import { z } from "zod";
import { authSecret } from "../env";
import { authConfig, tokenUser } from "./auth.config";
import { clientAddress } from "./client-address";
import { verifySignIn } from "./credentials";
import { endSession } from "./end-session";
import { loadSessionUser } from "./load-session-user";
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

const ZCredentials = z.object({ email: z.string(), password: z.string() });

export const { handlers, auth, signIn, signOut } = NextAuth(() => ({
  ...authConfig,
  secret: authSecret(),
  callbacks: {
    ...authConfig.callbacks,
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
        if (outcome.status !== "ok") throw new InvalidCredentials();
        return outcome.user;
      },
    }),
  ],
}));

/** Why a password sign-in was refused; on success next-auth redirects (it throws Next's redirect). */
export type TSignInRefusal = { refused: "invalid_credentials" } | { refused: "locked"; retryAfterMinutes: number } | { refused: "busy" };

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
