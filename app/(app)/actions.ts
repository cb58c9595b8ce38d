"use server";
// Sign-out is not behind authedAction on purpose: ending a session must work even when the session
// is already expired or revoked, and for a signed-out caller it does nothing but clear a cookie.
import { signOut } from "@/lib/auth/auth";
import { SIGN_IN_PATH } from "@/lib/auth/public-paths";

export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: SIGN_IN_PATH });
}
