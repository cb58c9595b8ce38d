"use client";
import { useRouter } from "next/navigation";
import { useActionState, useEffect } from "react";
import type { TActionResult } from "@/lib/auth/action-result";
import { formMessage, type TFormMessage } from "@/components/action-message";
import { runShadowPassAction } from "./actions";

type TState = TActionResult<{ ticketsConsidered: number; batchId: string | null }> | null;

function message(state: TState): TFormMessage | null {
  return formMessage(
    state,
    (ok) =>
      ok.ticketsConsidered === 0
        ? { tone: "ok", text: "No ticket is waiting for a refund decision: there was nothing to shadow." }
        : {
            tone: "ok",
            text: `Shadow pass started: ${ok.ticketsConsidered} ${ok.ticketsConsidered === 1 ? "ticket" : "tickets"} without shadow evidence, each run in simulate mode by the job queue.`,
          },
    { forbidden: "Your role may not run a shadow pass.", invalid: "Could not start the pass." },
  );
}

/** Runs the agent in simulate mode over the most recent tickets waiting for a refund decision. */
export function ShadowPassButton({ limit }: { limit: number }) {
  const [state, action, pending] = useActionState((_prev: TState, form: FormData) => runShadowPassAction(form), null);
  const shown = message(state);
  const router = useRouter();
  const started = state?.status === "ok" ? state.batchId : null;
  useEffect(() => {
    if (started) router.refresh();
  }, [started, router]);
  return (
    <form action={action} aria-label="Shadow pass" className="space-y-2">
      <input type="hidden" name="limit" value={limit} />
      <button
        type="submit"
        disabled={pending}
        className="inline-flex h-8 items-center rounded-md border border-slate-300 bg-white px-3 text-[13px] font-medium text-slate-800 hover:bg-slate-50 disabled:cursor-wait disabled:opacity-60"
      >
        {pending ? "Running shadow pass…" : "Run shadow pass"}
      </button>
      <p
        role="status"
        data-testid="shadow-message"
        className={`min-h-5 text-[13px] ${shown?.tone === "error" ? "text-red-700" : "text-slate-700"}`}
      >
        {shown?.text}
      </p>
    </form>
  );
}

/** While a shadow pass works, the page (its progress and the evidence) refreshes itself. */
export function RefreshWhileWorking({ working }: { working: boolean }) {
  const router = useRouter();
  useEffect(() => {
    if (!working) return;
    const timer = setInterval(() => router.refresh(), 1500);
    return () => clearInterval(timer);
  }, [working, router]);
  return null;
}
