"use server";
// The sign-in form's action. The one action not behind authedAction: signing in is how a session
// starts. It keeps the throttle's message and hides everything else behind one generic answer; the
// refusals come back from lib/auth as values.
import { z } from "zod";
import { plainText } from "@/lib/contracts/text";
import { OIDC_PROVIDER_ID, signIn, signInWithPassword } from "@/lib/auth/auth";
import { safeCallbackUrl } from "@/lib/auth/public-paths";
import { BUSY_MESSAGE, INVALID_CREDENTIALS_MESSAGE, lockedMessage, SSO_REQUIRED_MESSAGE } from "./messages";

export type TSignInState = { status: "idle" } | { status: "error"; message: string };

const ZSignInForm = z.object({
  email: plainText(z.string().trim().min(1).max(320)),
  password: z.string().min(1).max(1024),
  callbackUrl: z.string().optional(),
});

export async function signInAction(_previous: TSignInState, form: FormData): Promise<TSignInState> {
  const parsed = ZSignInForm.safeParse({
    email: form.get("email") ?? "",
    password: form.get("password") ?? "",
    callbackUrl: form.get("callbackUrl") ?? undefined,
  });
  if (!parsed.success) return { status: "error", message: "Enter your email and password." };
  // On success this does not return: next-auth's redirect takes the browser on.
  const refusal = await signInWithPassword({
    email: parsed.data.email,
    password: parsed.data.password,
    redirectTo: safeCallbackUrl(parsed.data.callbackUrl),
  });
  if (refusal.refused === "locked") return { status: "error", message: lockedMessage(refusal.retryAfterMinutes) };
  if (refusal.refused === "sso_required") return { status: "error", message: SSO_REQUIRED_MESSAGE };
  return { status: "error", message: refusal.refused === "busy" ? BUSY_MESSAGE : INVALID_CREDENTIALS_MESSAGE };
}

/**
 * "Sign in with the identity provider": next-auth's redirect to the provider (with state, PKCE and a
 * nonce in cookies). Like the password form, it starts a session, so it is not behind authedAction.
 */
export async function oidcSignInAction(form: FormData): Promise<void> {
  const callbackUrl = form.get("callbackUrl");
  await signIn(OIDC_PROVIDER_ID, { redirectTo: safeCallbackUrl(typeof callbackUrl === "string" ? callbackUrl : undefined) });
}
