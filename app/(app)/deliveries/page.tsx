import type { Metadata } from "next";
import Link from "next/link";
import { EmptyState } from "@/components/empty-state";
import { formatUtc } from "@/components/format";
import { PageHeader } from "@/components/page-header";
import { Cell, CardRow, ResponsiveTable, type TColumn } from "@/components/responsive-table";
import { requireRole } from "@/lib/auth/session";
import { CHANNEL_LABELS, DELIVERY_STATE_LABELS, DELIVERY_STATES, deliveriesPage } from "@/lib/delivery/list-deliveries";

export const metadata: Metadata = { title: "Deliveries" };

type TRow = Awaited<ReturnType<typeof deliveriesPage>>["rows"][number];

const TONE: Record<TRow["state"], string> = {
  pending: "bg-amber-50 text-amber-800 ring-amber-200",
  delivered: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  failed: "bg-red-50 text-red-800 ring-red-200",
  withdrawn: "bg-slate-100 text-slate-700 ring-slate-300",
};

function State({ row }: { row: TRow }) {
  return (
    <div className="space-y-0.5">
      <span className={`inline-block rounded px-1.5 py-0.5 text-[12px] font-medium ring-1 ring-inset ${TONE[row.state]}`}>
        {DELIVERY_STATE_LABELS[row.state]} <code className="font-mono text-[11px]">{row.state}</code>
      </span>
      {row.failureReason ? (
        <p className="text-[12px] text-red-800">
          Reason: <code className="font-mono text-[11px] break-all">{row.failureReason}</code>
        </p>
      ) : null}
      {row.lastError && row.state !== "delivered" ? <p className="text-[12px] break-words text-slate-600">{row.lastError}</p> : null}
    </div>
  );
}

function Tabs({ current }: { current: string | null }) {
  const tabs = [{ value: null, label: "All" }, ...DELIVERY_STATES.map((s) => ({ value: s, label: DELIVERY_STATE_LABELS[s] }))];
  return (
    <nav aria-label="Delivery state" className="mb-3 flex flex-wrap gap-2 text-[13px]">
      {tabs.map((t) => (
        <Link
          key={t.label}
          href={t.value ? `/deliveries?state=${t.value}` : "/deliveries"}
          prefetch={false}
          aria-current={current === t.value ? "page" : undefined}
          className="rounded-md border border-slate-300 bg-white px-2.5 py-1 text-slate-700 hover:bg-slate-50 aria-[current=page]:border-indigo-600 aria-[current=page]:text-indigo-700"
        >
          {t.label}
        </Link>
      ))}
    </nav>
  );
}

function DeliveriesTable({ rows }: { rows: TRow[] }) {
  const columns: TColumn[] = ["Released", "Ticket", "Channel", "State", { label: "Attempts", align: "right" }, "Disclosure", "Delivery id"];
  return (
    <ResponsiveTable caption="Reply deliveries, newest first" columns={columns}>
      {rows.map((r) => (
        <CardRow key={r.id} className="hover:bg-slate-50">
          <Cell label="Released" className="tabular-nums text-slate-700 md:whitespace-nowrap">
            <time dateTime={r.createdAt.toISOString()}>{formatUtc(r.createdAt, "minute")}</time>
          </Cell>
          <Cell label="Ticket" className="order-first col-span-2 md:order-none md:col-span-1">
            <Link href={`/tickets/${r.ticket.id}`} prefetch={false} className="text-indigo-700 hover:underline">
              #{r.ticket.number}
            </Link>{" "}
            <span className="break-words text-slate-600">{r.ticket.subject}</span>
          </Cell>
          <Cell label="Channel">
            {r.channel ? (CHANNEL_LABELS[r.channel] ?? r.channel) : <span className="text-slate-400">not tried yet</span>}
            {r.externalRef ? <code className="block font-mono text-[11px] break-all text-slate-500">{r.externalRef}</code> : null}
          </Cell>
          <Cell label="State">
            <State row={r} />
          </Cell>
          <Cell label="Attempts" className="tabular-nums md:text-right">
            {r.attempts}
          </Cell>
          <Cell label="Disclosure">{r.disclosed ? "Carried the AI disclosure" : "None"}</Cell>
          <Cell label="Delivery id" className="col-span-2 min-w-0 md:col-span-1 md:max-w-48">
            <code className="block truncate font-mono text-[11px] text-slate-500" title={r.id}>
              {r.id}
            </code>
          </Cell>
        </CardRow>
      ))}
    </ResponsiveTable>
  );
}

export default async function DeliveriesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requireRole("tickets");
  const params = await searchParams;
  const state = Array.isArray(params.state) ? params.state[0] : params.state;
  const page = await deliveriesPage({ state });
  return (
    <>
      <PageHeader
        title="Deliveries"
        description="Each approved reply and where it went: delivered at least once through the configured channel, retried with backoff, newest first."
      />
      <Tabs current={page.state} />
      {page.rows.length ? (
        <DeliveriesTable rows={page.rows} />
      ) : (
        <EmptyState title="No deliveries">Replies appear here once a person approves them.</EmptyState>
      )}
    </>
  );
}
