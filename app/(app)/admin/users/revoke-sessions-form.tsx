"use client";
import { useActionState } from "react";
import type { TActionResult } from "@/lib/auth/action-result";
import { formMessage } from "@/components/action-message";
import { revokeUserSessionsAction } from "./actions";

type TState = TActionResult<{ revoked: number }> | null;

/** One user's row control: revoke every session they hold. The answer is spoken beside the button. */
export function RevokeSessionsForm({ userId, email, liveSessions }: { userId: string; email: string; liveSessions: number }) {
  const [state, action, pending] = useActionState((_prev: TState, form: FormData) => revokeUserSessionsAction(form), null);
  const shown = formMessage(
    state,
    (ok) => ({ tone: "ok", text: ok.revoked === 1 ? "1 session ended." : `${ok.revoked} sessions ended.` }),
    { forbidden: "Your role may not sign people out.", invalid: "That user could not be read." },
  );
  return (
    <form action={action} className="flex flex-col-reverse items-end gap-1">
      <input type="hidden" name="userId" value={userId} />
      {shown ? (
        <span role="status" className={`max-w-44 text-right text-[12px] ${shown.tone === "ok" ? "text-emerald-700" : "text-red-700"}`}>
          {shown.text}
        </span>
      ) : null}
      <button
        type="submit"
        disabled={pending || liveSessions === 0}
        aria-label={`Sign out ${email} everywhere`}
        className="h-7 rounded-md border border-slate-300 bg-white px-2 text-[12px] font-medium whitespace-nowrap text-slate-700 shadow-xs hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50"
      >
        {pending ? "Signing out…" : "Sign out"}
      </button>
    </form>
  );
}
