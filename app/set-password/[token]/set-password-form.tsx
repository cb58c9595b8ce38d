"use client";
import Link from "next/link";
import { useActionState } from "react";
import { setPasswordAction, type TSetPasswordState } from "./actions";

const initial: TSetPasswordState = { status: "idle" };
const INPUT =
  "block h-9 w-full rounded-md border border-slate-300 bg-white px-3 text-sm shadow-xs focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30";

export function SetPasswordForm({ token, email, minLength }: { token: string; email: string; minLength: number }) {
  const [state, action, pending] = useActionState(setPasswordAction, initial);
  if (state.status === "done") {
    return (
      <p role="status" className="text-[13px] text-slate-800">
        Your password is set.{" "}
        <Link href="/signin" className="font-medium text-indigo-700 underline underline-offset-2">
          Sign in
        </Link>{" "}
        as {state.email}.
      </p>
    );
  }
  const error = state.status === "error" ? state.message : undefined;
  return (
    <form action={action} className="space-y-4" noValidate>
      <input type="hidden" name="token" value={token} />
      {/* For password managers: the account the new password belongs to. */}
      <input type="hidden" name="username" autoComplete="username" value={email} />
      <div className="space-y-1">
        <label htmlFor="password" className="block text-[13px] font-medium text-slate-700">
          New password
        </label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={minLength}
          aria-describedby="password-help set-password-error"
          className={INPUT}
        />
        <p id="password-help" className="text-[12px] text-slate-600">
          At least {minLength} characters.
        </p>
      </div>
      <div className="space-y-1">
        <label htmlFor="confirm" className="block text-[13px] font-medium text-slate-700">
          The same password again
        </label>
        <input
          id="confirm"
          name="confirm"
          type="password"
          autoComplete="new-password"
          required
          aria-describedby="set-password-error"
          className={INPUT}
        />
      </div>
      <p id="set-password-error" aria-live="polite" className="min-h-5 text-[13px] text-red-700">
        {error}
      </p>
      <button
        type="submit"
        disabled={pending}
        aria-busy={pending}
        className="inline-flex h-9 w-full items-center justify-center rounded-md bg-indigo-600 px-4 text-sm font-medium text-white shadow-xs hover:bg-indigo-700 disabled:cursor-wait disabled:opacity-70"
      >
        Set password
      </button>
    </form>
  );
}
