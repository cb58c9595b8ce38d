"use client";
// Bulk work from the queue: a selection of tickets (a box per row, shift-click for a range, the whole
// page, or every ticket of the view up to what one action takes), the bar of what can be done to them,
// and the progress of the batch that does it, ticket by ticket, while the job queue works.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useId, useRef, useState, useTransition } from "react";
import { failureText } from "@/components/action-message";
import { ReasonText, StatusBadge } from "@/components/status-badge";
import type { TBatchItemResult, TBatchProgress } from "@/lib/agent/batches";
import type { TActionResult } from "@/lib/auth/action-result";
import { selectAllInViewAction, startBulkAssignAction, startBulkRunAction } from "./bulk-actions";
import type { TQueueParams } from "./live-queue";

export interface TBulkAbilities {
  /** May run the agent (live or simulate) on tickets. */
  mayRun: boolean;
  /** May assign tickets, and to whom. */
  mayAssign: boolean;
  /** May decide approvals: the selection's waiting requests, in a batch. */
  mayApprove: boolean;
  /** The most one batch decides. */
  decideLimit: number;
  people: { id: string; name: string; role: string }[];
  /** The most one action takes. */
  limit: number;
}

/** `selected` with `ids` added (checked) or taken out. */
export function withChecked(selected: ReadonlySet<string>, ids: readonly string[], checked: boolean): ReadonlySet<string> {
  const next = new Set(selected);
  for (const id of ids) {
    if (checked) next.add(id);
    else next.delete(id);
  }
  return next;
}

/** The selected ticket ids, with the last box clicked as the anchor of a shift-click range. */
export function useSelection() {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const anchor = useRef<string | null>(null);
  /** Sets `id` to `checked`; with shift, every row between the anchor and it on `order` too. */
  const toggle = useCallback((id: string, checked: boolean, shift: boolean, order: readonly string[]) => {
    const from = anchor.current ? order.indexOf(anchor.current) : -1;
    const to = order.indexOf(id);
    const range = shift && from >= 0 && to >= 0 ? order.slice(Math.min(from, to), Math.max(from, to) + 1) : [id];
    anchor.current = id;
    setSelected((previous) => withChecked(previous, range, checked));
  }, []);
  const setMany = useCallback(
    (ids: readonly string[], checked: boolean) => setSelected((previous) => withChecked(previous, ids, checked)),
    [],
  );
  const clear = useCallback(() => {
    anchor.current = null;
    setSelected(new Set());
  }, []);
  return { selected, toggle, setMany, replace: (ids: readonly string[]) => setSelected(new Set(ids)), clear };
}

type TSelection = ReturnType<typeof useSelection>;

const BUTTON =
  "inline-flex h-8 items-center rounded-md border border-slate-300 bg-white px-3 text-[13px] font-medium text-slate-800 shadow-xs hover:bg-slate-50 disabled:cursor-wait disabled:opacity-60";

/** Above the table: the page's box and "select every ticket of this view". */
export function SelectionTools({
  selection,
  pageIds,
  params,
  limit,
}: {
  selection: TSelection;
  pageIds: readonly string[];
  params: TQueueParams;
  limit: number;
}) {
  const [pending, startTransition] = useTransition();
  const [note, setNote] = useState<string | null>(null);
  const onPage = pageIds.filter((id) => selection.selected.has(id)).length;
  const all = pageIds.length > 0 && onPage === pageIds.length;
  const selectAll = () =>
    startTransition(async () => {
      const result = await selectAllInViewAction({ q: params.q, view: params.view, status: params.status, reason: params.reason });
      if (result.status !== "ok")
        return setNote(failureText(result, { forbidden: "Your role may not select tickets.", invalid: "This view could not be read." }));
      selection.replace(result.ticketIds);
      setNote(
        result.more
          ? `The first ${result.ticketIds.length} tickets of this view are selected: one action takes at most ${limit}. Act on these, then select again for the rest.`
          : `All ${result.ticketIds.length} tickets of this view are selected.`,
      );
    });
  return (
    <div className="mb-2 flex flex-wrap items-center gap-x-4 gap-y-2 text-[13px] text-slate-700">
      <label className="inline-flex items-center gap-2">
        <input
          type="checkbox"
          className="size-4"
          checked={all}
          ref={(box) => {
            if (box) box.indeterminate = onPage > 0 && !all;
          }}
          onChange={(event) => selection.setMany(pageIds, event.target.checked)}
          disabled={pageIds.length === 0}
        />
        Select this page
      </label>
      <button
        type="button"
        onClick={selectAll}
        disabled={pending}
        className="font-medium text-indigo-700 hover:underline disabled:cursor-wait disabled:opacity-60"
      >
        {pending ? "Selecting…" : `Select all in this view (up to ${limit})`}
      </button>
      {note ? (
        <span role="status" data-testid="selection-note" className="text-slate-600">
          {note}
        </span>
      ) : null}
    </div>
  );
}

export type TStarted = { batchId: string; total: number; what: string };

/** The bar of actions on the selection, fixed to the bottom of the window while anything is selected. */
export function BulkBar({
  selection,
  abilities,
  onStarted,
}: {
  selection: TSelection;
  abilities: TBulkAbilities;
  onStarted: (started: TStarted) => void;
}) {
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [assignee, setAssignee] = useState("");
  const assignId = useId();
  const router = useRouter();
  const count = selection.selected.size;
  if (count === 0) return null;
  const ticketIds = [...selection.selected];
  const tickets = `${count} ${count === 1 ? "ticket" : "tickets"}`;

  const start = (what: string, call: () => Promise<TActionResult<{ batchId: string; total: number }>>) =>
    startTransition(async () => {
      setError(null);
      const result = await call();
      if (result.status !== "ok")
        return setError(
          failureText(result, { forbidden: "Your role may not do this to tickets.", invalid: "Could not start: check the selection." }),
        );
      selection.clear();
      onStarted({ batchId: result.batchId, total: result.total, what });
    });

  return (
    <div
      role="region"
      aria-label="Bulk actions"
      className="sticky bottom-0 z-10 mt-3 rounded-lg border border-slate-300 bg-white px-3 py-2 shadow-md"
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="mr-1 text-[13px] font-medium text-slate-900" data-testid="selected-count">
          {count} selected
        </span>
        {abilities.mayRun ? (
          <>
            <button
              type="button"
              disabled={pending}
              className={BUTTON}
              onClick={() => start(`Running the agent on ${tickets}`, () => startBulkRunAction({ ticketIds, mode: "live" }))}
            >
              Run agent
            </button>
            <button
              type="button"
              disabled={pending}
              className={BUTTON}
              onClick={() => start(`Simulating the agent on ${tickets}`, () => startBulkRunAction({ ticketIds, mode: "simulate" }))}
            >
              Simulate
            </button>
          </>
        ) : null}
        {abilities.mayApprove ? (
          <button
            type="button"
            disabled={pending}
            className={BUTTON}
            onClick={() =>
              count > abilities.decideLimit
                ? setError(`Decide at most ${abilities.decideLimit} requests at once: select fewer tickets.`)
                : router.push(`/approvals/batch?${ticketIds.map((id) => `t=${id}`).join("&")}`)
            }
          >
            Decide…
          </button>
        ) : null}
        {abilities.mayAssign ? (
          <span className="inline-flex flex-wrap items-center gap-2">
            <label htmlFor={assignId} className="sr-only">
              Assign the selected tickets to
            </label>
            <select
              id={assignId}
              value={assignee}
              onChange={(event) => setAssignee(event.target.value)}
              className="h-8 max-w-48 rounded-md border border-slate-300 bg-white px-2 text-[13px]"
            >
              <option value="">Assign to…</option>
              {abilities.people.map((person) => (
                <option key={person.id} value={person.id}>
                  {person.name}
                </option>
              ))}
            </select>
            <button
              type="button"
              disabled={pending || !assignee}
              className={BUTTON}
              onClick={() =>
                start(`Assigning ${tickets} to ${abilities.people.find((p) => p.id === assignee)?.name ?? "them"}`, () =>
                  startBulkAssignAction({ ticketIds, assigneeId: assignee }),
                )
              }
            >
              Assign
            </button>
          </span>
        ) : null}
        <button type="button" onClick={selection.clear} className="ml-auto text-[13px] font-medium text-slate-600 hover:underline">
          Clear selection
        </button>
      </div>
      {error ? (
        <p role="alert" className="mt-1 text-[13px] text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

type TBatchJson = TBatchProgress & { items: TBatchItemResult[] };

async function fetchBatch(batchId: string, signal: AbortSignal): Promise<TBatchJson> {
  const response = await fetch(`/api/batches?id=${encodeURIComponent(batchId)}`, {
    signal,
    headers: { accept: "application/json" },
    cache: "no-store",
  });
  if (!response.ok) throw new Error(`The batch's progress could not be read (HTTP ${response.status}).`);
  return response.json();
}

/** A started batch, ticket by ticket, refreshed every second until every item has settled. */
export function BatchProgressPanel({ started, onClose }: { started: TStarted; onClose: () => void }) {
  const queryClient = useQueryClient();
  const { data, error } = useQuery({
    queryKey: ["batch", started.batchId],
    queryFn: async ({ signal }) => {
      const batch = await fetchBatch(started.batchId, signal);
      // The queue's rows change as the batch works: refresh them with each reading.
      await queryClient.invalidateQueries({ queryKey: ["queue"] });
      return batch;
    },
    refetchInterval: (query) => (query.state.data?.finished ? false : 1_000),
  });
  const settled = data ? data.done + data.refused + data.failed : 0;
  return (
    <section
      aria-label="Bulk progress"
      data-testid="batch-progress"
      className="mb-3 rounded-lg border border-indigo-200 bg-indigo-50/40 px-3 py-2"
    >
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h2 className="text-[13px] font-semibold text-slate-900">{started.what}</h2>
        <p role="status" className="text-[13px] text-slate-700" data-testid="batch-summary">
          {data
            ? `${data.finished ? "Finished" : "Working"}: ${settled} of ${data.total} settled · ${data.done} done${data.refused ? ` · ${data.refused} refused` : ""}${data.failed ? ` · ${data.failed} failed (see Admin → Jobs)` : ""}`
            : error
              ? error.message
              : "Starting…"}
        </p>
        <button type="button" onClick={onClose} className="ml-auto text-[13px] font-medium text-slate-600 hover:underline">
          {data?.finished ? "Close" : "Hide"}
        </button>
      </div>
      <progress className="mt-2 block h-1.5 w-full accent-indigo-600" max={started.total} value={settled} aria-label="Tickets settled" />
      {data && data.kind !== "assign" ? <BatchPace batch={data} /> : null}
      {data ? (
        <ol className="mt-2 max-h-72 divide-y divide-slate-100 overflow-y-auto rounded-md border border-slate-200 bg-white text-[13px]">
          {data.items.map((item) => (
            <li
              key={item.ticketId}
              data-testid="batch-item"
              data-status={item.status}
              className="flex flex-wrap items-baseline gap-x-3 gap-y-1 px-3 py-1.5"
            >
              <Link
                href={`/tickets/${item.ticketId}`}
                prefetch={false}
                className="min-w-0 flex-1 wrap-anywhere text-slate-900 hover:text-indigo-700 hover:underline"
              >
                <span className="font-mono text-[12px] text-slate-500">#{item.number}</span> {item.subject}
              </Link>
              <ItemOutcome item={item} />
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}

/** How fast the batch goes, and how long its runs waited for the model's rate limit (added up over runs side by side). */
function BatchPace({ batch }: { batch: TBatchProgress }) {
  const waited = batch.limiterWaitMs / 1000;
  return (
    <dl className="mt-1.5 flex flex-wrap gap-x-4 gap-y-0.5 text-[12px] text-slate-600" data-testid="batch-pace">
      <div className="flex gap-1">
        <dt>Throughput</dt>
        <dd className="font-medium text-slate-800 tabular-nums">
          {batch.ticketsPerMinute === null ? "–" : `${batch.ticketsPerMinute.toLocaleString("en")} tickets/min`}
        </dd>
      </div>
      <div className="flex gap-1">
        <dt>Waiting on the model&apos;s rate limit</dt>
        <dd className="font-medium text-slate-800 tabular-nums">
          {waited < 60 ? `${waited.toFixed(1)} s` : `${Math.floor(waited / 60)} min ${Math.round(waited % 60)} s`}
        </dd>
      </div>
    </dl>
  );
}

function ItemOutcome({ item }: { item: TBatchItemResult }) {
  switch (item.status) {
    case "queued":
      return <span className="text-slate-500">Waiting</span>;
    case "done":
      return item.run ? (
        <span className="inline-flex flex-wrap items-center gap-2">
          <StatusBadge status={item.run.status} />
          <ReasonText reason={item.run.reason} />
        </span>
      ) : (
        <span className="text-emerald-800">{item.detail ?? "Assigned"}</span>
      );
    case "refused":
      return <span className="text-amber-900">Refused: {item.detail}</span>;
    case "failed":
      return <span className="text-red-800">Failed: {item.detail}</span>;
  }
}
