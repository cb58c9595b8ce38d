"use client";
import { useActionState } from "react";
import { formMessage } from "@/components/action-message";
import type { TActionResult } from "@/lib/auth/action-result";
import { ROLE_LABELS, ROLES, type Role } from "@/lib/contracts/roles";
import { updateSsoPolicyAction } from "./actions";

type TState = TActionResult<{ requireSso: boolean }> | null;

export interface TSsoFormProps {
  policy: { requireSso: boolean; createOnFirstSignIn: boolean; defaultRole: Role; breakGlassUserId: string | null };
  admins: { id: string; email: string; name: string }[];
  /** The admin filling the form: the break-glass admin by default. */
  meId: string;
}

const field = "block h-9 w-full rounded-md border border-slate-300 bg-white px-3 text-sm shadow-xs";

/** The admin's sign-in policy: require the provider, the break-glass admin, accounts on first sign-in. */
export function SsoForm({ policy, admins, meId }: TSsoFormProps) {
  const [state, action, pending] = useActionState((_prev: TState, form: FormData) => updateSsoPolicyAction(form), null);
  const shown = formMessage(
    state,
    (ok) => ({ tone: "ok", text: ok.requireSso ? "Saved: everyone but the break-glass admin signs in through the provider." : "Saved." }),
    { forbidden: "Your role may not change how people sign in.", invalid: "Check the settings." },
  );
  return (
    <form action={action} className="space-y-4">
      <label className="flex items-start gap-2 text-sm text-slate-800">
        <input type="checkbox" name="requireSso" defaultChecked={policy.requireSso} className="mt-1" />
        <span>Require sign-in through the identity provider for everyone but the break-glass admin</span>
      </label>
      <div className="space-y-1">
        <label htmlFor="breakGlassUserId" className="block text-[13px] font-medium text-slate-700">
          Break-glass admin (keeps their password)
        </label>
        <select id="breakGlassUserId" name="breakGlassUserId" defaultValue={policy.breakGlassUserId ?? meId} className={field}>
          <option value="">None</option>
          {admins.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name} ({a.email})
            </option>
          ))}
        </select>
      </div>
      <label className="flex items-start gap-2 text-sm text-slate-800">
        <input type="checkbox" name="createOnFirstSignIn" defaultChecked={policy.createOnFirstSignIn} className="mt-1" />
        <span>Create an account at a person&apos;s first sign-in when their verified email has none</span>
      </label>
      <div className="space-y-1">
        <label htmlFor="defaultRole" className="block text-[13px] font-medium text-slate-700">
          Role for a new account when no group gives one
        </label>
        <select id="defaultRole" name="defaultRole" defaultValue={policy.defaultRole} className={field}>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABELS[r]}
            </option>
          ))}
        </select>
      </div>
      <p role="status" aria-live="polite" className={`min-h-5 text-[13px] ${shown?.tone === "ok" ? "text-emerald-700" : "text-red-700"}`}>
        {shown?.text}
      </p>
      <button
        type="submit"
        disabled={pending}
        className="inline-flex h-9 items-center justify-center rounded-md bg-indigo-600 px-4 text-sm font-medium text-white shadow-xs hover:bg-indigo-700 disabled:opacity-70"
      >
        Save sign-in settings
      </button>
    </form>
  );
}
