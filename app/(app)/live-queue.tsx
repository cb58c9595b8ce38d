"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { EmptyState } from "@/components/empty-state";
import { formatUtc } from "@/components/format";
import { hrefWith, Pager } from "@/components/pager";
import { ResponsiveTable, type TColumn } from "@/components/responsive-table";
import type { TQueuePageJson } from "@/lib/queue/list-tickets";
import { BatchProgressPanel, BulkBar, SelectionTools, useSelection, type TBulkAbilities, type TStarted } from "./bulk-work";
import { QueueRow } from "./queue-row";

export const QUEUE_REFRESH_MS = 5_000;

export interface TQueueParams {
  q?: string;
  view?: string;
  status?: string;
  reason?: string;
  cursor?: string;
}

class QueueFetchError extends Error {
  constructor(readonly httpStatus: number) {
    super(`The queue could not be refreshed (HTTP ${httpStatus}).`);
  }
}

async function fetchQueue(params: TQueueParams, signal: AbortSignal): Promise<TQueuePageJson> {
  const response = await fetch(
    hrefWith("/api/queue", { q: params.q, view: params.view, status: params.status, reason: params.reason, cursor: params.cursor }),
    {
      signal,
      headers: { accept: "application/json" },
      cache: "no-store",
    },
  );
  if (!response.ok) throw new QueueFetchError(response.status);
  return response.json();
}

const COLUMNS: readonly TColumn[] = [
  "Select",
  "Ticket",
  "Customer",
  "Status",
  "Reason",
  { label: "Proposed refund", align: "right" },
  "Waiting",
  "Assignee",
];

/**
 * The queue table, refreshed every 5 seconds from GET /api/queue. The server renders the first
 * response (initialData), so the page is complete before any script runs; afterwards new tickets
 * appear and handled ones leave without a reload. Polling pauses while the tab is hidden.
 */
export function LiveQueue({
  params,
  initialData,
  filtered,
  caption,
  bulk,
}: {
  params: TQueueParams;
  initialData: TQueuePageJson;
  filtered: boolean;
  caption?: string;
  bulk: TBulkAbilities;
}) {
  const selection = useSelection();
  const [started, setStarted] = useState<TStarted | null>(null);
  const { data, error, previous, next } = useQueuePage(params, initialData);
  const terms = data.highlight ?? [];
  const pageIds = data.rows.map((row) => row.id);

  return (
    <>
      {error ? <RefreshProblem error={error} asOf={data.asOf} /> : null}

      {started ? <BatchProgressPanel key={started.batchId} started={started} onClose={() => setStarted(null)} /> : null}
      {data.rows.length > 0 ? <SelectionTools selection={selection} pageIds={pageIds} params={params} limit={bulk.limit} /> : null}

      {data.rows.length === 0 ? (
        <EmptyQueue params={params} filtered={filtered} />
      ) : (
        <ResponsiveTable
          caption={params.q ? `Tickets matching “${params.q}”, newest first` : (caption ?? "Tickets waiting for a person, newest first")}
          columns={COLUMNS}
        >
          {data.rows.map((row) => (
            <QueueRow
              key={row.id}
              row={row}
              terms={terms}
              snippet={data.snippets?.[row.id]}
              asOf={data.asOf}
              selected={selection.selected.has(row.id)}
              onToggle={(checked, shift) => selection.toggle(row.id, checked, shift, pageIds)}
            />
          ))}
        </ResponsiveTable>
      )}

      <BulkBar selection={selection} abilities={bulk} onStarted={setStarted} />

      <Pager label="Queue pages" previous={previous} next={next}>
        <span className="inline-flex items-center gap-1.5">
          <span aria-hidden="true" className={`size-1.5 rounded-full ${error ? "bg-amber-500" : "bg-emerald-500"}`} />
          Live: refreshes every 5 seconds · updated {formatUtc(data.asOf)}
        </span>
      </Pager>
    </>
  );
}

/** The queue's page, polled, with the links to the pages before and after it under the same filters. */
function useQueuePage(params: TQueueParams, initialData: TQueuePageJson) {
  const { data, error } = useQuery({
    queryKey: ["queue", params.q ?? "", params.view ?? "", params.status ?? "", params.reason ?? "", params.cursor ?? ""],
    queryFn: ({ signal }) => fetchQueue(params, signal),
    initialData,
    initialDataUpdatedAt: Date.parse(initialData.asOf),
    refetchInterval: QUEUE_REFRESH_MS,
  });
  const filters = { q: params.q, view: params.view, status: params.status, reason: params.reason };
  const newer = data.newerCursor ? hrefWith("/", { ...filters, cursor: data.newerCursor }) : null;
  const older = data.olderCursor ? hrefWith("/", { ...filters, cursor: data.olderCursor }) : null;
  // Oldest first (the views), the page before holds older tickets; newest first, newer ones.
  const [previous, next] = data.order === "oldest" ? [older, newer] : [newer, older];
  return { data, error, previous, next };
}

/** Why the queue stopped refreshing: a session that ended, or a refresh that failed (retried). */
function RefreshProblem({ error, asOf }: { error: Error; asOf: string }) {
  return (
    <div role="status" className="mb-3 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-[13px] text-amber-900">
      {error instanceof QueueFetchError && error.httpStatus === 401 ? (
        <>
          Your session has ended, so the queue stopped refreshing.{" "}
          <a href="/signin" className="font-medium underline">
            Sign in again
          </a>
          .
        </>
      ) : (
        <>The queue could not be refreshed; it shows what was waiting at {formatUtc(asOf)}. Trying again every 5 seconds.</>
      )}
    </div>
  );
}

/** An empty page, in the words of why it is empty: a page emptied meanwhile, a view, a search, filters, or nothing waiting. */
function EmptyQueue({ params, filtered }: { params: TQueueParams; filtered: boolean }) {
  const { q, view, status, reason } = params;
  if (params.cursor)
    return (
      <EmptyState title="No tickets on this page">
        They were handled while you were away.{" "}
        <Link href={hrefWith("/", { q, view, status, reason })} className="font-medium text-indigo-700 hover:underline">
          Back to the newest tickets
        </Link>
      </EmptyState>
    );
  if (params.view)
    return (
      <EmptyState title="No tickets in this view">
        Nothing is waiting here.{" "}
        <Link href="/" className="font-medium text-indigo-700 hover:underline">
          Back to the queue
        </Link>
      </EmptyState>
    );
  if (params.q)
    return (
      <EmptyState title="No ticket matches this search">
        Search looks at ticket numbers, words of the subject and message, customer emails and order ids.{" "}
        <Link href="/" className="font-medium text-indigo-700 hover:underline">
          Back to the queue
        </Link>
      </EmptyState>
    );
  if (filtered)
    return (
      <EmptyState title="No tickets match these filters">
        Try another status or reason, or{" "}
        <Link href="/" className="font-medium text-indigo-700 hover:underline">
          clear the filters
        </Link>
        .
      </EmptyState>
    );
  return (
    <EmptyState title="Nothing is waiting for a person">
      When the agent hands a ticket over, it appears here within a few seconds.
    </EmptyState>
  );
}
