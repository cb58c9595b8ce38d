"use client";
// The run the page follows while it works: "Run agent" enqueues it and answers with its id, and this
// panel polls GET /api/runs for its steps as they are written, its budgets moving with them, until it
// ends; then the page is refreshed (the run joins the list below, the decision card shows its
// proposal) and the panel goes. Reloading the page or opening it in another tab follows a run still
// running (the server names it). Closing the tab changes nothing for the run: it is a job.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useState, useTransition } from "react";
import { BudgetBar } from "@/components/budget-bar";
import { ReasonText, StatusBadge } from "@/components/status-badge";
import { TraceTimeline } from "@/components/trace-timeline";
import type { TLiveRunProgress } from "@/lib/agent/live-runs";

/** How often the panel asks for the run's new steps. */
export const LIVE_RUN_POLL_MS = 400;

const followedKey = (ticketId: string) => ["followed-run", ticketId] as const;

/**
 * The run the page follows on this ticket (null: none), shared by the run buttons and the panel
 * through the query cache: the buttons wait while it runs.
 */
export function useFollowedRun(ticketId: string, running: string | null = null) {
  const client = useQueryClient();
  const { data } = useQuery({
    queryKey: followedKey(ticketId),
    queryFn: () => running,
    initialData: running,
    staleTime: Infinity,
  });
  return { runId: data ?? null, follow: (runId: string | null) => client.setQueryData(followedKey(ticketId), runId) };
}

async function fetchRun(runId: string, signal: AbortSignal): Promise<TLiveRunProgress> {
  const response = await fetch(`/api/runs?id=${encodeURIComponent(runId)}`, {
    signal,
    headers: { accept: "application/json" },
    cache: "no-store",
  });
  if (!response.ok) throw new Error(`The run could not be read (HTTP ${response.status}).`);
  return response.json();
}

/** The run has ended, or was refused at its start. */
export const runFinished = (progress: TLiveRunProgress | undefined) => progress?.state === "ended" || progress?.state === "refused";

/** `running`: the id of a run the server saw running on this ticket, followed from the first render. */
export function LiveRunPanel({ ticketId, running }: { ticketId: string; running: string | null }) {
  const { runId, follow } = useFollowedRun(ticketId, running);
  const router = useRouter();
  const [refreshing, startRefresh] = useTransition();
  // The run whose end the page has been refreshed for: set in the refresh's own transition, so it
  // lands with the refreshed page, never before it.
  const [shownFor, setShownFor] = useState<string | null>(null);
  const { data, error } = useQuery({
    queryKey: ["live-run", runId],
    queryFn: ({ signal }) => fetchRun(runId!, signal),
    enabled: runId !== null,
    staleTime: 0,
    refetchInterval: (query) => (runFinished(query.state.data) ? false : LIVE_RUN_POLL_MS),
  });
  const progress = data?.runId === runId ? data : undefined;
  const ended = progress?.state === "ended";
  useEffect(() => {
    if (!runId || !ended || refreshing || shownFor === runId) return;
    startRefresh(() => {
      router.refresh();
      setShownFor(runId);
    });
  }, [runId, ended, refreshing, shownFor, router]);
  // The refreshed page shows the run: the panel lets it go, and the run buttons are free again.
  useEffect(() => {
    if (runId && shownFor === runId && !refreshing) follow(null);
  }, [runId, shownFor, refreshing, follow]);
  if (!runId) return null;
  return <LiveRunCard progress={progress} error={error} />;
}

function LiveRunCard({ progress, error }: { progress: TLiveRunProgress | undefined; error: Error | null }) {
  const budgets = progress?.budgets;
  return (
    <section aria-label="Run in progress" aria-busy={!runFinished(progress)} className="rounded-lg border border-indigo-200 bg-white">
      <header className="flex flex-wrap items-center gap-2 border-b border-slate-100 px-4 py-2 text-[13px]">
        <h2 className="font-semibold text-slate-900">Run in progress</h2>
        {progress?.status ? <StatusBadge status={progress.status} /> : null}
        {progress?.reason ? <ReasonText reason={progress.reason} /> : null}
        <span role="status" className="ml-auto text-[12px] text-slate-500">
          {!progress || progress.state === "queued"
            ? "Waiting for a worker…"
            : progress.state === "running"
              ? `${progress.steps.length} step${progress.steps.length === 1 ? "" : "s"} so far`
              : progress.state === "ended"
                ? "Finished"
                : "Not started"}
        </span>
      </header>
      {progress?.state === "refused" ? (
        <p role="alert" className="px-4 py-3 text-[13px] text-red-700">
          {progress.message}
        </p>
      ) : null}
      {error ? <p className="px-4 pt-2 text-[12px] text-amber-700">{error.message} Trying again.</p> : null}
      {budgets && progress ? (
        <div className="grid grid-cols-1 gap-3 px-4 py-3 sm:grid-cols-3">
          <BudgetBar label="Steps" used={progress.used.steps} limit={budgets.maxSteps} unit="" />
          <BudgetBar label="Tokens" used={progress.used.tokens} limit={budgets.maxTokens} unit="" />
          <BudgetBar label="Time" used={progress.used.wallMs} limit={budgets.maxWallMs} unit="ms" />
        </div>
      ) : null}
      {progress && progress.steps.length ? (
        <div className="px-4 pb-3">
          <TraceTimeline steps={progress.steps} label="Steps of the run in progress, one card per step" />
        </div>
      ) : null}
    </section>
  );
}
