"use client";
// One ticket of the live queue: its box for the selection, the ticket with the search's matches
// marked, the customer, status, reason, proposed refund, how long it has waited and who holds it.
import Link from "next/link";
import { formatAge, formatAmount, formatUtc } from "@/components/format";
import { Cell, CardRow, SelectCell } from "@/components/responsive-table";
import { ReasonText, StatusBadge } from "@/components/status-badge";
import type { TQueuePageJson } from "@/lib/queue/list-tickets";
import { highlightSegments } from "@/lib/queue/search-terms";

type TQueueRow = TQueuePageJson["rows"][number];

/** `onToggle`: the box clicked, checked or not, with shift held or not (a range). */
export function QueueRow({
  row,
  terms,
  snippet,
  asOf,
  selected,
  onToggle,
}: {
  row: TQueueRow;
  terms: readonly string[];
  snippet: string | undefined;
  asOf: string;
  selected: boolean;
  onToggle: (checked: boolean, shift: boolean) => void;
}) {
  return (
    <CardRow className={selected ? "bg-indigo-50/60" : "hover:bg-slate-50"}>
      <SelectCell name={`Select ticket #${row.number}`} word="Select" checked={selected} onToggle={onToggle} />
      <TicketCell row={row} terms={terms} snippet={snippet} />
      <CustomerCell row={row} terms={terms} />
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
          <span className="font-medium text-slate-900 tabular-nums">{formatAmount(row.proposed.amountCents, row.proposed.currency)}</span>
        ) : (
          <span className="text-slate-400">–</span>
        )}
      </Cell>
      <Cell label="Waiting" className="md:whitespace-nowrap">
        <time dateTime={row.createdAt} title={`Arrived ${formatUtc(row.createdAt)}`} className="tabular-nums text-slate-700">
          {formatAge(row.createdAt, asOf)}
        </time>
        {row.sla ? <SlaBadge sla={row.sla} /> : null}
      </Cell>
      <Cell label="Assignee">
        {row.assigneeName ? <span className="text-slate-900">{row.assigneeName}</span> : <span className="text-slate-400">Unassigned</span>}
      </Cell>
    </CardRow>
  );
}

/** The ticket's number and subject, a link to it, and the search's snippet of the message. */
function TicketCell({ row, terms, snippet }: { row: TQueueRow; terms: readonly string[]; snippet: string | undefined }) {
  return (
    <Cell className="col-span-2 md:min-w-64">
      {/* No prefetch: fifty ticket pages rendered on the server for every queue view (and
          each a session refresh) would cost more than the click they might save. */}
      <Link href={`/tickets/${row.id}`} prefetch={false} data-shortcut-row className="group flex min-w-0 items-baseline gap-2 rounded-sm">
        <span className="font-mono text-[12px] text-slate-500">#{row.number}</span>{" "}
        <span className="min-w-0 font-medium wrap-anywhere text-slate-900 group-hover:text-indigo-700 group-hover:underline">
          <Marked text={row.subject} terms={terms} />
        </span>
      </Link>
      {snippet ? (
        <p className="mt-0.5 text-[12px] text-slate-600">
          <Marked text={snippet} terms={terms} />
        </p>
      ) : null}
    </Cell>
  );
}

/** The customer's name and email; during a search, the order too (its id may be what matched). */
function CustomerCell({ row, terms }: { row: TQueueRow; terms: readonly string[] }) {
  return (
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
function SlaBadge({ sla }: { sla: NonNullable<TQueueRow["sla"]> }) {
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
