"use server";
// The sign-in form's action. The one action not behind authedAction: signing in is how a session
// starts. It keeps the throttle's message and hides everything else behind one generic answer; the
// refusals come back from lib/auth as values.
import { z } from "zod";
import { plainText } from "@/lib/contracts/text";
import { signInWithPassword } from "@/lib/auth/auth";
import { safeCallbackUrl } from "@/lib/auth/public-paths";
import { BUSY_MESSAGE, INVALID_CREDENTIALS_MESSAGE, lockedMessage } from "./messages";

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
  return { status: "error", message: refusal.refused === "busy" ? BUSY_MESSAGE : INVALID_CREDENTIALS_MESSAGE };
}
