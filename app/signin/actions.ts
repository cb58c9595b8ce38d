"use server";
// The sign-in form's action. The one action not behind authedAction: signing in is how a session
// starts. It keeps the throttle's message and hides everything else behind one generic answer.
import { AuthError } from "next-auth";
import { z } from "zod";
import { SignInLocked, signIn } from "@/lib/auth/auth";
import { safeCallbackUrl } from "@/lib/auth/public-paths";
import { INVALID_CREDENTIALS_MESSAGE, lockedMessage } from "./messages";

export type TSignInState = { status: "idle" } | { status: "error"; message: string };

const ZSignInForm = z.object({
  email: z.string().trim().min(1).max(320),
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
  try {
    await signIn("credentials", {
      email: parsed.data.email,
      password: parsed.data.password,
      redirectTo: safeCallbackUrl(parsed.data.callbackUrl),
    });
  } catch (error) {
    if (error instanceof SignInLocked) return { status: "error", message: lockedMessage(error.retryAfterMinutes) };
    if (error instanceof AuthError) return { status: "error", message: INVALID_CREDENTIALS_MESSAGE };
    // signIn ends by throwing Next's redirect on success: it must reach Next, as must anything unexpected.
    throw error;
  }
  return { status: "idle" };
}
