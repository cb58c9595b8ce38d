// The full next-auth setup: the light config plus the Credentials provider, which checks the User
// table under the sign-in throttle. Used by the /api/auth route and the sign-in and sign-out actions;
// pages, actions and routes read the session through currentUser (session.ts).
import "server-only";
import NextAuth, { AuthError, CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { z } from "zod";
import { authSecret } from "../env";
import { authConfig } from "./auth.config";
import { clientAddress } from "./client-address";
import { verifySignIn } from "./credentials";
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
