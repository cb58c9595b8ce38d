"use client";
import { useActionState, useState } from "react";
import { formMessage } from "@/components/action-message";
import type { TActionResult } from "@/lib/auth/action-result";
import { ROLE_LABELS, ROLES } from "@/lib/contracts/roles";
import { inviteUserAction } from "./actions";
import { PasswordLinkShown } from "./password-link-shown";

type TState = TActionResult<{ email: string; linkPath: string; expiresAt: string }> | null;

const INPUT =
  "block h-8 w-full rounded-md border border-slate-300 bg-white px-2.5 text-[13px] text-slate-900 shadow-xs focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30";

/** Adds a person: email, name and role; the answer is their set-password link. What was typed stays on a refusal. */
export function InviteUserForm() {
  // Controlled, so a refusal keeps what was typed (a form action resets uncontrolled fields); cleared once added.
  const [fields, setFields] = useState({ email: "", name: "", role: "REVIEWER" });
  const [state, action, pending] = useActionState(async (_prev: TState, form: FormData) => {
    const result = await inviteUserAction(form);
    if (result.status === "ok") setFields({ email: "", name: "", role: "REVIEWER" });
    return result;
  }, null);
  const bind = (name: keyof typeof fields) => ({
    name,
    value: fields[name],
    onChange: (e: { target: { value: string } }) => setFields((f) => ({ ...f, [name]: e.target.value })),
  });
  const shown = formMessage(state, () => null, {
    forbidden: "Only an admin may add people.",
    invalid: "Check the email, name and role.",
    signedOut: "Nobody was added.",
  });
  return (
    <>
      <form action={action} aria-label="Add a person" className="space-y-3 text-[13px]">
        <div>
          <label htmlFor="invite-email" className="block font-medium text-slate-900">
            Email
          </label>
          <input id="invite-email" type="email" required autoComplete="off" className={INPUT} {...bind("email")} />
        </div>
        <div>
          <label htmlFor="invite-name" className="block font-medium text-slate-900">
            Name
          </label>
          <input id="invite-name" required autoComplete="off" className={INPUT} {...bind("name")} />
        </div>
        <div>
          <label htmlFor="invite-role" className="block font-medium text-slate-900">
            Role
          </label>
          <select id="invite-role" className={INPUT} {...bind("role")}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </select>
        </div>
        {shown ? (
          <p aria-live="polite" className="text-[12px] text-red-700">
            {shown.text}
          </p>
        ) : null}
        <button
          type="submit"
          disabled={pending}
          className="h-8 rounded-md bg-slate-900 px-3 text-[13px] font-medium text-white hover:bg-slate-800 disabled:opacity-60"
        >
          {pending ? "Adding…" : "Add person"}
        </button>
      </form>
      {state?.status === "ok" ? (
        <PasswordLinkShown key={state.linkPath} email={state.email} linkPath={state.linkPath} expiresAt={state.expiresAt} />
      ) : null}
    </>
  );
}
