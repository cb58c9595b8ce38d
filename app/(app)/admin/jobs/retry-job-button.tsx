"use client";
import { useActionState } from "react";
import type { TActionResult } from "@/lib/auth/action-result";
import { failureText } from "@/components/action-message";
import { retryJobAction } from "./actions";

type TState = TActionResult<{ retried: string }> | null;

export function RetryJobButton({ queue, jobId }: { queue: string; jobId: string }) {
  const [state, action, pending] = useActionState((_prev: TState, form: FormData) => retryJobAction(form), null);
  return (
    <form action={action} aria-label={`Retry job ${jobId}`} className="inline-flex items-center gap-2">
      <input type="hidden" name="queue" value={queue} />
      <input type="hidden" name="jobId" value={jobId} />
      <button
        type="submit"
        disabled={pending || state?.status === "ok"}
        className="inline-flex h-7 items-center rounded-md border border-slate-300 bg-white px-2.5 text-[12px] font-medium text-slate-800 hover:bg-slate-50 disabled:opacity-50"
      >
        {pending ? "Retrying…" : state?.status === "ok" ? "Queued again" : "Retry"}
      </button>
      {state && state.status !== "ok" ? (
        <span role="status" className="text-[12px] text-red-700">
          {failureText(state, { forbidden: "Only admins retry jobs.", invalid: "Could not retry." })}
        </span>
      ) : null}
    </form>
  );
}
