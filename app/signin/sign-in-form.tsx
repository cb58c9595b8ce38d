"use client";
import { useActionState, useState } from "react";
import { signInAction, type TSignInState } from "./actions";

const initial: TSignInState = { status: "idle" };

export function SignInForm({ callbackUrl, initialError }: { callbackUrl: string; initialError?: string }) {
  const [state, action, pending] = useActionState(signInAction, initial);
  // Controlled, so a failed attempt keeps the email (React resets uncontrolled fields after an action).
  const [email, setEmail] = useState("");
  const error = state.status === "error" ? state.message : initialError;

  return (
    <form action={action} className="space-y-4" noValidate>
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <div className="space-y-1">
        <label htmlFor="email" className="block text-[13px] font-medium text-slate-700">
          Email
        </label>
        <input
          id="email"
          name="email"
          type="email"
          autoComplete="username"
          required
          autoFocus
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby="signin-error"
          className="block h-9 w-full rounded-md border border-slate-300 bg-white px-3 text-sm shadow-xs placeholder:text-slate-400 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30"
        />
      </div>
      <div className="space-y-1">
        <label htmlFor="password" className="block text-[13px] font-medium text-slate-700">
          Password
        </label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          aria-invalid={error ? true : undefined}
          aria-describedby="signin-error"
          className="block h-9 w-full rounded-md border border-slate-300 bg-white px-3 text-sm shadow-xs focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30"
        />
      </div>
      {/* Announced politely; not role="alert" (Next's route announcer already is one). */}
      <p id="signin-error" aria-live="polite" className="min-h-5 text-[13px] text-red-700">
        {error}
      </p>
      <button
        type="submit"
        disabled={pending}
        aria-busy={pending}
        className="inline-flex h-9 w-full items-center justify-center rounded-md bg-indigo-600 px-4 text-sm font-medium text-white shadow-xs hover:bg-indigo-700 disabled:cursor-wait disabled:opacity-70"
      >
        Sign in
      </button>
    </form>
  );
}
