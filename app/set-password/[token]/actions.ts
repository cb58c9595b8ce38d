"use server";
// The set-password link's action: not behind authedAction, like sign-in – the person has no session
// yet; the link's token is their credential, checked (once) by lib/auth. Refusals come back as values.
import { headers } from "next/headers";
import { z } from "zod";
import { clientAddress } from "@/lib/auth/client-address";
import { setPasswordWithLink } from "@/lib/auth/set-password-with-link";
import { throttleLimits } from "@/lib/auth/throttle";

export type TSetPasswordState = { status: "idle" } | { status: "error"; message: string } | { status: "done"; email: string };

const ZSetPasswordForm = z.object({ token: z.string().max(100), password: z.string().max(1024), confirm: z.string().max(1024) });

const REFUSED = {
  link_unusable:
    "This link no longer works: it was used already, replaced by a newer one, or its person was deactivated. Ask an admin for a new link.",
  link_expired: "This link has expired (links work for 24 hours). Ask an admin for a new one.",
  busy: "Too many passwords being set at once right now; try again in a moment.",
} as const;

const lockedMessage = (minutes: number) =>
  `Too many links that do not work were tried from here; try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;

export async function setPasswordAction(_previous: TSetPasswordState, form: FormData): Promise<TSetPasswordState> {
  const parsed = ZSetPasswordForm.safeParse({
    token: form.get("token") ?? "",
    password: form.get("password") ?? "",
    confirm: form.get("confirm") ?? "",
  });
  if (!parsed.success) return { status: "error", message: "Enter the password twice." };
  if (parsed.data.password !== parsed.data.confirm)
    return { status: "error", message: "The two passwords differ: type the same password twice." };
  const outcome = await setPasswordWithLink({
    token: parsed.data.token,
    password: parsed.data.password,
    now: new Date(),
    address: clientAddress(await headers()),
    limits: throttleLimits(),
  });
  if (outcome.status === "ok") return { status: "done", email: outcome.email };
  if (outcome.status === "invalid_password") return { status: "error", message: outcome.message };
  if (outcome.status === "locked") return { status: "error", message: lockedMessage(outcome.retryAfterMinutes) };
  return { status: "error", message: REFUSED[outcome.status] };
}
