"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { EmptyState } from "@/components/empty-state";
import { formatAge, formatAmount, formatUtc } from "@/components/format";
import { hrefWith, Pager } from "@/components/pager";
import { Cell, CardRow, ResponsiveTable, type TColumn } from "@/components/responsive-table";
import { ReasonText, StatusBadge } from "@/components/status-badge";
import type { TQueuePageJson } from "@/lib/queue/list-tickets";
import { highlightSegments } from "@/lib/queue/search-terms";
import { BatchProgressPanel, BulkBar, SelectionTools, useSelection, type TBulkAbilities, type TStarted } from "./bulk-work";

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
  const { data, error } = useQuery({
    queryKey: ["queue", params.q ?? "", params.view ?? "", params.status ?? "", params.reason ?? "", params.cursor ?? ""],
    queryFn: ({ signal }) => fetchQueue(params, signal),
    initialData,
    initialDataUpdatedAt: Date.parse(initialData.asOf),
    refetchInterval: QUEUE_REFRESH_MS,
  });
  const filters = { q: params.q, view: params.view, status: params.status, reason: params.reason };
  const terms = data.highlight ?? [];
  const newer = data.newerCursor ? hrefWith("/", { ...filters, cursor: data.newerCursor }) : null;
  const older = data.olderCursor ? hrefWith("/", { ...filters, cursor: data.olderCursor }) : null;
  // Oldest first (the views), the page before holds older tickets; newest first, newer ones.
  const [previous, next] = data.order === "oldest" ? [older, newer] : [newer, older];
  const pageIds = data.rows.map((row) => row.id);

  return (
    <>
      {error ? (
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
            <>The queue could not be refreshed; it shows what was waiting at {formatUtc(data.asOf)}. Trying again every 5 seconds.</>
          )}
        </div>
      ) : null}

      {started ? <BatchProgressPanel key={started.batchId} started={started} onClose={() => setStarted(null)} /> : null}
      {data.rows.length > 0 ? <SelectionTools selection={selection} pageIds={pageIds} params={params} limit={bulk.limit} /> : null}

      {data.rows.length === 0 ? (
        params.cursor ? (
          <EmptyState title="No tickets on this page">
            They were handled while you were away.{" "}
            <Link href={hrefWith("/", filters)} className="font-medium text-indigo-700 hover:underline">
              Back to the newest tickets
            </Link>
          </EmptyState>
        ) : params.view ? (
          <EmptyState title="No tickets in this view">
            Nothing is waiting here.{" "}
            <Link href="/" className="font-medium text-indigo-700 hover:underline">
              Back to the queue
            </Link>
          </EmptyState>
        ) : params.q ? (
          <EmptyState title="No ticket matches this search">
            Search looks at ticket numbers, words of the subject and message, customer emails and order ids.{" "}
            <Link href="/" className="font-medium text-indigo-700 hover:underline">
              Back to the queue
            </Link>
          </EmptyState>
        ) : filtered ? (
          <EmptyState title="No tickets match these filters">
            Try another status or reason, or{" "}
            <Link href="/" className="font-medium text-indigo-700 hover:underline">
              clear the filters
            </Link>
            .
          </EmptyState>
        ) : (
          <EmptyState title="Nothing is waiting for a person">
            When the agent hands a ticket over, it appears here within a few seconds.
          </EmptyState>
        )
      ) : (
        <ResponsiveTable
          caption={params.q ? `Tickets matching “${params.q}”, newest first` : (caption ?? "Tickets waiting for a person, newest first")}
          columns={COLUMNS}
        >
          {data.rows.map((row) => (
            <CardRow key={row.id} className={selection.selected.has(row.id) ? "bg-indigo-50/60" : "hover:bg-slate-50"}>
              <Cell className="col-span-2 md:w-10">
                <label className="inline-flex items-center gap-2 text-[12px] text-slate-600">
                  <input
                    type="checkbox"
                    className="size-4"
                    checked={selection.selected.has(row.id)}
                    onChange={(event) =>
                      selection.toggle(row.id, event.target.checked, (event.nativeEvent as MouseEvent).shiftKey === true, pageIds)
                    }
                  />
                  <span className="sr-only">Select ticket #{row.number}</span>
                  <span aria-hidden="true" className="md:hidden">
                    Select
                  </span>
                </label>
              </Cell>
              <Cell className="col-span-2 md:min-w-64">
                {/* No prefetch: fifty ticket pages rendered on the server for every queue view (and
                    each a session refresh) would cost more than the click they might save. */}
                <Link
                  href={`/tickets/${row.id}`}
                  prefetch={false}
                  data-shortcut-row
                  className="group flex min-w-0 items-baseline gap-2 rounded-sm"
                >
                  <span className="font-mono text-[12px] text-slate-500">#{row.number}</span>{" "}
                  <span className="min-w-0 font-medium wrap-anywhere text-slate-900 group-hover:text-indigo-700 group-hover:underline">
                    <Marked text={row.subject} terms={terms} />
                  </span>
                </Link>
                {data.snippets?.[row.id] ? (
                  <p className="mt-0.5 text-[12px] text-slate-600">
                    <Marked text={data.snippets[row.id]!} terms={terms} />
                  </p>
                ) : null}
              </Cell>
              <Cell label="Customer" className="min-w-0">
                {row.customerName ? <span className="block truncate text-slate-900">{row.customerName}</span> : null}
                <span className="block truncate text-[12px] text-slate-500">
                  <Marked text={row.customerEmail} terms={terms} />
                </span>
                {terms.length && row.orderRef ? (
                  <span className="block truncate text-[12px] text-slate-500">
                    Order <Marked text={row.orderRef} terms={terms} />
                  </span>
                ) : null}
              </Cell>
              <Cell label="Status" className="md:whitespace-nowrap">
                <StatusBadge status={row.status} />
                {row.pendingStale ? (
                  <span
                    data-testid="stale"
                    title="The policy or the agent changed since the waiting request was made: run the agent again for a fresh one."
                    className="mt-1 block w-fit rounded-full border border-amber-300 bg-amber-50 px-1.5 text-[11px] font-semibold text-amber-900"
                  >
                    Stale: run again
                  </span>
                ) : null}
              </Cell>
              <Cell label="Reason" className="col-span-2 md:col-span-1">
                <ReasonText reason={row.reason} />
              </Cell>
              <Cell label="Proposed refund" className="md:text-right md:whitespace-nowrap">
                {row.proposed ? (
                  <span className="font-medium text-slate-900 tabular-nums">
                    {formatAmount(row.proposed.amountCents, row.proposed.currency)}
                  </span>
                ) : (
                  <span className="text-slate-400">–</span>
                )}
              </Cell>
              <Cell label="Waiting" className="md:whitespace-nowrap">
                <time dateTime={row.createdAt} title={`Arrived ${formatUtc(row.createdAt)}`} className="tabular-nums text-slate-700">
                  {formatAge(row.createdAt, data.asOf)}
                </time>
                {row.sla ? <SlaBadge sla={row.sla} /> : null}
              </Cell>
              <Cell label="Assignee">
                {row.assigneeName ? (
                  <span className="text-slate-900">{row.assigneeName}</span>
                ) : (
                  <span className="text-slate-400">Unassigned</span>
                )}
              </Cell>
            </CardRow>
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

/** Text with the parts a search matched marked (no markup from the text itself: segments are strings). */
function Marked({ text, terms }: { text: string; terms: readonly string[] }) {
  if (terms.length === 0) return <>{text}</>;
  return (
    <>
      {highlightSegments(text, terms).map((segment, i) =>
        segment.match ? (
          <mark key={i} className="rounded-sm bg-amber-100 px-0.5 text-slate-900">
            {segment.text}
          </mark>
        ) : (
          segment.text
        ),
      )}
    </>
  );
}

const SLA_WORDS = { on_track: "On track", due_soon: "Due soon", overdue: "Overdue" } as const;
const SLA_STYLE = {
  on_track: "border-slate-200 bg-white text-slate-600",
  due_soon: "border-amber-300 bg-amber-50 text-amber-900",
  overdue: "border-red-300 bg-red-50 font-semibold text-red-800",
} as const;

/** The SLA state in words, the target and the due time in its title. */
function SlaBadge({ sla }: { sla: NonNullable<TQueuePageJson["rows"][number]["sla"]> }) {
  const target = `${sla.kind === "approval" ? "approval" : "hand-off"} target ${sla.targetHours} h`;
  return (
    <span
      data-testid="sla"
      title={`${SLA_WORDS[sla.state]}: ${target}, due ${formatUtc(sla.dueAt)}`}
      className={`ml-1.5 inline-flex items-center rounded-full border px-1.5 text-[11px] whitespace-nowrap ${SLA_STYLE[sla.state]}`}
    >
      {SLA_WORDS[sla.state]}
      <span className="sr-only"> ({target})</span>
    </span>
  );
}
