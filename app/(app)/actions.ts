"use server";
// Sign-out is not behind authedAction on purpose: ending a session must work even when the session
// is already expired or revoked, and for a signed-out caller it does nothing but clear a cookie.
// Both sign-outs revoke on the server, so a copy of the cookie is refused afterwards.
import { z } from "zod";
import { signOutSession } from "@/lib/auth/auth";
import { authedAction } from "@/lib/auth/authed";
import { SIGN_IN_PATH } from "@/lib/auth/public-paths";
import { revokeUserSessions } from "@/lib/auth/revoke-user-sessions";

export async function signOutAction(): Promise<void> {
  await signOutSession(SIGN_IN_PATH);
}

/** Every session of the signed-in person revoked, this one included; then this browser's cookie cleared. */
export const signOutEverywhereAction = authedAction({ area: "account", input: z.object({}) }, async ({ user }) => {
  await revokeUserSessions({ userId: user.id, actor: user, now: new Date() });
  await signOutSession(SIGN_IN_PATH);
  return {};
});
