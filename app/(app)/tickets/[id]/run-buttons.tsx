"use client";
import { useQuery } from "@tanstack/react-query";
import { useActionState, useState } from "react";
import type { TActionResult } from "@/lib/auth/action-result";
import { formMessage } from "@/components/action-message";
import { runAgentAction } from "./actions";
import type { TLiveRunProgress } from "@/lib/agent/live-runs";
import { useFollowedRun } from "./live-run";

type TState = TActionResult<{ runId: string; runStatus: string; reason: string | null }> | null;

export function RunButton({
  ticketId,
  mode,
  label,
  primary,
  planner,
  running,
}: {
  ticketId: string;
  mode: "live" | "simulate";
  label: string;
  primary?: boolean;
  planner: string;
  /** A run still working on the ticket: the button waits for it. */
  running?: string | null;
}) {
  const followed = useFollowedRun(ticketId, running ?? null);
  // The run the page follows, as its panel last read it (no fetch of its own): the buttons wait until
  // the panel lets it go – ended and shown on the refreshed page – or it was refused at its start.
  const { data: progress } = useQuery<TLiveRunProgress>({ queryKey: ["live-run", followed.runId], enabled: false });
  const busy = followed.runId !== null && progress?.state !== "refused";
  const [state, action, pending] = useActionState(async (_prev: TState, form: FormData) => {
    const result = await runAgentAction(form);
    // Followed before the button is released: it stays busy until the run has ended and the page shows it.
    if (result.status === "ok") followed.follow(result.runId);
    return result;
  }, null);
  const error =
    formMessage(state, () => null, { forbidden: "Your role may not run the agent.", invalid: "Could not start the run." })?.text ?? null;
  return (
    <form action={action} className="flex flex-col items-start sm:items-end">
      <input type="hidden" name="ticketId" value={ticketId} />
      <input type="hidden" name="mode" value={mode} />
      <input type="hidden" name="planner" value={planner} />
      <button
        type="submit"
        disabled={pending || busy}
        className={
          primary
            ? "inline-flex h-8 items-center whitespace-nowrap rounded-md bg-indigo-600 px-3 text-[13px] font-medium text-white hover:bg-indigo-700 disabled:cursor-wait disabled:opacity-60"
            : "inline-flex h-8 items-center whitespace-nowrap rounded-md border border-slate-300 bg-white px-3 text-[13px] font-medium text-slate-800 hover:bg-slate-50 disabled:cursor-wait disabled:opacity-60"
        }
      >
        {pending || busy ? "Running…" : label}
      </button>
      {error ? <p className="mt-1 max-w-64 text-[12px] text-red-700 sm:text-right">{error}</p> : null}
    </form>
  );
}

/** The planner and the runs this ticket offers (listRunModes): none at all renders nothing. */
export function RunButtons({
  ticketId,
  modes,
  model,
  running,
}: {
  ticketId: string;
  modes: readonly ("live" | "simulate")[];
  model: { available: boolean; reason?: string; name?: string };
  /** A run still working on the ticket: the buttons wait for it. */
  running: string | null;
}) {
  const [planner, setPlanner] = useState("default");
  if (!modes.length) return null;
  return (
    <div className="flex flex-wrap items-start gap-2">
      <div className="flex flex-col">
        <label htmlFor="planner" className="sr-only">
          Planner
        </label>
        <select
          id="planner"
          value={planner}
          onChange={(e) => setPlanner(e.target.value)}
          className="h-8 rounded-md border border-slate-300 bg-white px-2 text-[13px]"
          aria-describedby={model.available ? undefined : "model-unavailable"}
        >
          <option value="default">Default planner</option>
          <option value="rule">Rule planner</option>
          <option value="model" disabled={!model.available}>
            {model.available ? `Model planner (${model.name})` : "Model planner (unavailable)"}
          </option>
        </select>
        {!model.available ? (
          <p id="model-unavailable" className="mt-1 max-w-56 text-[11px] text-slate-500">
            {model.reason}
          </p>
        ) : null}
      </div>
      {modes.includes("simulate") ? (
        <RunButton
          ticketId={ticketId}
          mode="simulate"
          label="Run in simulate mode"
          primary={!modes.includes("live")}
          planner={planner}
          running={running}
        />
      ) : null}
      {modes.includes("live") ? (
        <RunButton ticketId={ticketId} mode="live" label="Run agent" primary planner={planner} running={running} />
      ) : null}
    </div>
  );
}
