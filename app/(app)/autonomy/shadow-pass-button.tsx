"use client";
import { useRouter } from "next/navigation";
import { useActionState, useEffect } from "react";
import type { TActionResult } from "@/lib/auth/action-result";
import { runShadowPassAction } from "./actions";

type TState = TActionResult<{ ticketsConsidered: number; batchId: string | null }> | null;

function message(state: TState): { tone: "ok" | "error"; text: string } | null {
  if (!state) return null;
  switch (state.status) {
    case "ok":
      if (state.ticketsConsidered === 0) return { tone: "ok", text: "No ticket is waiting for a refund decision: there was nothing to shadow." };
      return { tone: "ok", text: `Shadow pass started: ${state.ticketsConsidered} ${state.ticketsConsidered === 1 ? "ticket" : "tickets"} without shadow evidence, each run in simulate mode by the job queue.` };
    case "invalid":
      return { tone: "error", text: Object.values(state.fieldErrors).flat()[0] ?? state.formErrors[0] ?? "Could not start the pass." };
    case "forbidden":
      return { tone: "error", text: "Your role may not run a shadow pass." };
    case "unauthenticated":
      return { tone: "error", text: "Your session has ended: sign in again." };
    case "error":
      return { tone: "error", text: state.message };
  }
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
      <button type="submit" disabled={pending} className="inline-flex h-8 items-center rounded-md border border-slate-300 bg-white px-3 text-[13px] font-medium text-slate-800 hover:bg-slate-50 disabled:cursor-wait disabled:opacity-60">
        {pending ? "Running shadow pass…" : "Run shadow pass"}
      </button>
      <p role="status" data-testid="shadow-message" className={`min-h-5 text-[13px] ${shown?.tone === "error" ? "text-red-700" : "text-slate-700"}`}>
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
