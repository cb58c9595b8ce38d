import type { Metadata } from "next";
import Link from "next/link";
import { z } from "zod";
import { EmptyState } from "@/components/empty-state";
import { FilterActions, FilterField, FilterForm, filterFieldsOf } from "@/components/filter-field";
import { formatAmount, formatUtc } from "@/components/format";
import { PageHeader } from "@/components/page-header";
import { Cell, CardRow, ResponsiveTable, type TColumn } from "@/components/responsive-table";
import { hrefWith, Pager } from "@/components/pager";
import { requireRole } from "@/lib/auth/session";
import { REFUND_STATE_LABELS, type TPaymentProvider, type TRefundState } from "@/lib/contracts/reason-codes";
import { decodeCursor } from "@/lib/db/keyset";
import {
  listLedger,
  listLedgerActors,
  POLICY_APPROVER,
  ZLedgerFilters,
  type TLedgerFilters,
  type TLedgerRow,
} from "@/lib/ledger/list-ledger";

export const metadata: Metadata = { title: "Ledger" };

type TSearchParams = Record<string, string | string[] | undefined>;
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

function Filters({
  values,
  errors,
  actors,
}: {
  values: Record<string, string>;
  errors: Record<string, string[] | undefined>;
  actors: { id: string; name: string; email: string }[];
}) {
  const filtered = Object.values(values).some(Boolean);
  const at = filterFieldsOf("ledger", values, errors);
  return (
    <FilterForm action="/ledger" label="Filter the ledger" className="mb-3 grid grid-cols-2 items-end gap-3 sm:flex sm:flex-wrap">
      <FilterField {...at("orderId")} label="Order id" className="col-span-2 sm:w-44">
        {(control) => <input {...control} placeholder="ORD-1001" autoComplete="off" spellCheck={false} />}
      </FilterField>
      <FilterField {...at("from")} label="From (UTC)" className="sm:w-40">
        {(control) => <input {...control} type="date" />}
      </FilterField>
      <FilterField {...at("to")} label="To (UTC, inclusive)" className="sm:w-40">
        {(control) => <input {...control} type="date" />}
      </FilterField>
      <FilterField {...at("actor")} label="Actor" className="col-span-2 sm:w-56">
        {(control) => (
          <select {...control}>
            <option value="">Anyone</option>
            <option value={POLICY_APPROVER.filter}>The policy (approved within the autonomy dial)</option>
            <option value="system">System (the refund worker executes every refund)</option>
            {actors.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name} ({a.email})
              </option>
            ))}
          </select>
        )}
      </FilterField>
      <FilterActions
        submit="Apply filters"
        clear="Clear filters"
        clearHref="/ledger"
        filtered={filtered}
        className="col-span-2 flex items-center gap-3"
      />
    </FilterForm>
  );
}

function Actor({ row }: { row: TLedgerRow }) {
  if (row.actorType === "user") return <span>{row.actorName ?? <code className="font-mono text-[12px]">{row.actorId}</code>}</span>;
  return (
    <span>
      <span className="capitalize">{row.actorType}</span>
      {row.actorId ? <code className="ml-1 font-mono text-[11px] text-slate-500">{row.actorId}</code> : null}
    </span>
  );
}

const POLICY_WORDS = POLICY_APPROVER.words.charAt(0).toUpperCase() + POLICY_APPROVER.words.slice(1);

/** The people who approved, in seat order, one a line; the policy for an auto-approval. */
function Approvers({ row }: { row: TLedgerRow }) {
  if (row.approvers.length === 0) return <span className="text-slate-400">–</span>;
  return (
    <ul>
      {row.approvers.map((a, i) => (
        <li key={a.kind === "person" ? a.userId : `policy-${i}`}>{a.kind === "person" ? a.name : POLICY_WORDS}</li>
      ))}
    </ul>
  );
}

const STATE_TONE: Record<TRefundState, string> = {
  requested: "bg-amber-50 text-amber-800 ring-amber-200",
  pending: "bg-amber-50 text-amber-800 ring-amber-200",
  requires_action: "bg-amber-50 text-amber-800 ring-amber-200",
  succeeded: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  failed: "bg-red-50 text-red-800 ring-red-200",
  canceled: "bg-red-50 text-red-800 ring-red-200",
};

/** Where the refund was executed, its state there in words with the code beside, and the provider's reason. */
/** Where each refund was executed, in words (an unknown provider is shown as recorded). */
const PROVIDER_WORDS: Readonly<Record<string, string>> = {
  "ledger-only": "Ledger only",
  stripe: "Stripe",
  shopify: "Shopify",
} satisfies Record<TPaymentProvider, string>;

function ProviderState({ row }: { row: TLedgerRow }) {
  return (
    <div className="space-y-0.5">
      <span
        className={`inline-block rounded px-1.5 py-0.5 text-[12px] font-medium ring-1 ring-inset ${STATE_TONE[row.state]}`}
        title={`changed ${formatUtc(row.stateChangedAt, "minute")}`}
      >
        {REFUND_STATE_LABELS[row.state]} <code className="font-mono text-[11px]">{row.state}</code>
      </span>
      <p className="text-[12px] text-slate-600">
        {PROVIDER_WORDS[row.provider] ?? row.provider}
        {row.providerRefundId ? <code className="ml-1 font-mono text-[11px] break-all text-slate-500">{row.providerRefundId}</code> : null}
      </p>
      {row.failureReason ? (
        <p className="text-[12px] text-red-800">
          Reason: <code className="font-mono text-[11px] break-all">{row.failureReason}</code>
        </p>
      ) : null}
    </div>
  );
}

function LedgerTable({ rows }: { rows: TLedgerRow[] }) {
  const columns: TColumn[] = [
    "Date",
    "Order",
    { label: "Amount", align: "right" },
    "Refund state",
    "Approved by",
    "Actor",
    "Ticket",
    "Idempotency key",
  ];
  return (
    <ResponsiveTable caption="Ledger entries, newest first" columns={columns}>
      {rows.map((r) => (
        <CardRow key={r.id} className="hover:bg-slate-50">
          <Cell label="Date" className="tabular-nums text-slate-700 md:whitespace-nowrap">
            <time dateTime={r.createdAt.toISOString()}>{formatUtc(r.createdAt, "minute")}</time>
          </Cell>
          <Cell label="Order" className="order-first col-span-2 md:order-none md:col-span-1">
            <Link
              href={hrefWith("/ledger", { orderId: r.orderId })}
              prefetch={false}
              className="font-mono text-[12px] break-all text-indigo-700 hover:underline"
              title={`Only entries of ${r.orderId}`}
            >
              {r.orderId}
            </Link>
          </Cell>
          <Cell label="Amount" className="font-medium whitespace-nowrap tabular-nums text-slate-900 md:text-right">
            {formatAmount(r.amountCents, r.currency)}
            {r.kind !== "refund" ? <span className="ml-1 text-[11px] font-normal text-slate-500">{r.kind}</span> : null}
          </Cell>
          <Cell label="Refund state">
            <ProviderState row={r} />
          </Cell>
          <Cell label="Approved by">
            <Approvers row={r} />
          </Cell>
          <Cell label="Actor">
            <Actor row={r} />
          </Cell>
          <Cell label="Ticket">
            {r.ticket ? (
              <Link href={`/tickets/${r.ticket.id}`} prefetch={false} className="text-indigo-700 hover:underline">
                #{r.ticket.number}
              </Link>
            ) : (
              <span className="text-slate-400">–</span>
            )}
          </Cell>
          <Cell label="Idempotency key" className="col-span-2 min-w-0 md:col-span-1 md:max-w-56">
            <code className="block truncate font-mono text-[11px] text-slate-500" title={r.idempotencyKey}>
              {r.idempotencyKey}
            </code>
          </Cell>
        </CardRow>
      ))}
    </ResponsiveTable>
  );
}

export default async function LedgerPage({ searchParams }: { searchParams: Promise<TSearchParams> }) {
  await requireRole("ledger");
  const params = await searchParams;
  const values = {
    orderId: first(params.orderId) ?? "",
    from: first(params.from) ?? "",
    to: first(params.to) ?? "",
    actor: first(params.actor) ?? "",
  };
  const parsed = ZLedgerFilters.safeParse(values);
  const cursorToken = first(params.cursor);
  const cursor = cursorToken ? (decodeCursor(cursorToken) ?? undefined) : undefined;
  const [actors, ledger] = await Promise.all([listLedgerActors(), parsed.success ? listLedger({ filters: parsed.data, cursor }) : null]);
  const filters: TLedgerFilters = parsed.success ? parsed.data : {};
  const filterParams = { orderId: filters.orderId, from: filters.from, to: filters.to, actor: filters.actor };
  const errors = parsed.success ? {} : (z.flattenError(parsed.error).fieldErrors as Record<string, string[] | undefined>);
  const filtered = parsed.success && Object.values(filterParams).some(Boolean);

  return (
    <>
      <PageHeader
        title="Ledger"
        description="Every refund the executor has written: one row per approved operation, newest first, with its state at the payment provider."
        actions={
          parsed.success ? (
            <a
              href={hrefWith("/api/ledger/export", filterParams)}
              download
              className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-[13px] font-medium text-slate-700 hover:bg-slate-50"
            >
              Download CSV{filtered ? " (filtered)" : ""}
            </a>
          ) : null
        }
      />
      <Filters key={JSON.stringify(values)} values={values} errors={errors} actors={actors} />
      {!ledger ? (
        <EmptyState title="Check the filters">Correct the highlighted field to see ledger entries.</EmptyState>
      ) : (
        <>
          <p className="mb-2 text-[13px] text-slate-600">
            <span className="font-medium text-slate-900">{ledger.totals.count.toLocaleString("en-US")}</span>{" "}
            {ledger.totals.count === 1 ? "entry" : "entries"}
            {filtered ? " match these filters" : ""}
            {ledger.totals.byCurrency.length ? (
              <>
                {" "}
                · total{" "}
                {ledger.totals.byCurrency.map((g, i) => (
                  <span key={g.currency} className="font-medium text-slate-900 tabular-nums">
                    {i > 0 ? " + " : ""}
                    {formatAmount(g.amountCents, g.currency)}
                  </span>
                ))}
              </>
            ) : null}
          </p>
          {ledger.rows.length === 0 ? (
            cursor ? (
              <EmptyState title="No entries on this page">
                <Link href={hrefWith("/ledger", filterParams)} className="font-medium text-indigo-700 hover:underline">
                  Back to the newest entries
                </Link>
              </EmptyState>
            ) : filtered ? (
              <EmptyState title="No entries match these filters">
                Try a wider date range or another actor, or{" "}
                <Link href="/ledger" className="font-medium text-indigo-700 hover:underline">
                  clear the filters
                </Link>
                .
              </EmptyState>
            ) : (
              <EmptyState title="No refunds yet">
                A row appears here only after a person approves a refund (or the autonomy dial allows one) and the executor writes it.
              </EmptyState>
            )
          ) : (
            <>
              <LedgerTable rows={ledger.rows} />
              <Pager
                label="Ledger pages"
                previous={ledger.newerCursor ? hrefWith("/ledger", { ...filterParams, cursor: ledger.newerCursor }) : null}
                next={ledger.olderCursor ? hrefWith("/ledger", { ...filterParams, cursor: ledger.olderCursor }) : null}
              />
            </>
          )}
        </>
      )}
    </>
  );
}
