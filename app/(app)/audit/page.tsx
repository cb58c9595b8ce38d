import type { Metadata } from "next";
import Link from "next/link";
import { z } from "zod";
import { Cell, CardRow, ResponsiveTable } from "@/components/responsive-table";
import { EmptyState } from "@/components/empty-state";
import { FilterActions, FilterField, FilterForm, filterFieldsOf } from "@/components/filter-field";
import { formatUtc } from "@/components/format";
import { JsonDetails } from "@/components/json-details";
import { PageHeader } from "@/components/page-header";
import { hrefWith, Pager } from "@/components/pager";
import { loadAuditCurrencies } from "@/lib/audit/audit-currencies";
import { describeAuditEvent } from "@/lib/audit/describe-event";
import { searchAudit, ZAuditQuery, type TAuditRow } from "@/lib/audit/search-audit";
import { describeProblem } from "@/lib/audit/audit-verify-report";
import type { TAuditReport } from "@/lib/audit/verify-audit-chain";
import { verifyIncrementally, type TIncrementalReport } from "@/lib/audit/verify-incrementally";
import { requireRole } from "@/lib/auth/session";
import { mayUse } from "@/lib/contracts/roles";
import { AuditPublicKey } from "./audit-public-key";

export const metadata: Metadata = { title: "Audit" };

type TSearchParams = Record<string, string | string[] | undefined>;
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

const FILTERS = ["ticket", "actor", "action", "from", "to"] as const;

function ChainBanner({ verified }: { verified: TIncrementalReport }) {
  const { report, lastFull } = verified;
  const full = lastFull
    ? `Last verified in full ${formatUtc(lastFull.at)}${lastFull.ok ? "" : " (it failed)"}.`
    : "Not yet verified in full (npm run audit:verify).";
  const n = report.unverifiedTail;
  const tail =
    n === 0
      ? "Every event is covered by a signed checkpoint."
      : `${n.toLocaleString("en-US")} recent ${n === 1 ? "event is" : "events are"} not yet covered by a signed checkpoint.`;
  if (report.ok) {
    return (
      <section
        aria-labelledby="chain-status"
        className="mb-4 flex items-start gap-3 rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3"
      >
        <span aria-hidden="true" className="mt-0.5 text-emerald-700">
          ✓
        </span>
        <div>
          <h2 id="chain-status" className="text-[13px] font-semibold text-emerald-900">
            The audit chain verifies
          </h2>
          <p className="text-[13px] text-emerald-800">
            {report.checkpoints ? `Through signed checkpoint ${report.position}; ` : "No signed checkpoint yet; "}
            every event since {verified.fromPosition ? `checkpoint ${verified.fromPosition}` : "the start"} matches its hash and its stream,
            and the ledger matches the audit. {tail} {full}
          </p>
        </div>
      </section>
    );
  }
  return (
    <section aria-labelledby="chain-status" className="mb-4 flex items-start gap-3 rounded-lg border border-red-300 bg-red-50 px-4 py-3">
      <span aria-hidden="true" className="mt-0.5 font-bold text-red-700">
        !
      </span>
      <div>
        <h2 id="chain-status" className="text-[13px] font-semibold text-red-900">
          The audit chain does not verify
        </h2>
        <ul className="list-disc pl-4 text-[13px] text-red-800">
          {report.problems.slice(0, 10).map((p, i) => (
            <li key={i}>{describeProblem(p)}</li>
          ))}
        </ul>
        {report.problems.length > 10 ? (
          <p className="text-[13px] text-red-800">… and {report.problems.length - 10} more: run npm run audit:verify for the full list.</p>
        ) : null}
        <p className="text-[13px] text-red-800">
          {tail} {full}
        </p>
      </div>
    </section>
  );
}

/** The first event a problem names, to mark it in the table. */
function brokenSeqOf(report: TAuditReport): bigint | null {
  for (const p of report.problems) if (p.kind === "event_altered" || p.kind === "link_broken") return p.seq;
  return null;
}

function Filters({ values, errors }: { values: Record<string, string>; errors: Record<string, string[] | undefined> }) {
  const filtered = FILTERS.some((f) => values[f]);
  const at = filterFieldsOf("audit", values, errors);
  return (
    <FilterForm action="/audit" label="Search the audit trail" className="mb-4 grid grid-cols-2 items-end gap-3 lg:flex lg:flex-wrap">
      <FilterField {...at("ticket")} label="Ticket" className="lg:w-40">
        {(control) => <input {...control} placeholder="12 or an id" autoComplete="off" spellCheck={false} />}
      </FilterField>
      <FilterField
        {...at("actor")}
        label="Actor"
        hint="A person's email or name, an actor type (user, agent, system, api) or an actor id."
        className="lg:w-52"
      >
        {(control) => <input {...control} placeholder="email, name, agent, system…" autoComplete="off" spellCheck={false} />}
      </FilterField>
      <FilterField {...at("action")} label="Action" className="col-span-2 lg:w-48">
        {(control) => <input {...control} placeholder="refund or refund.executed" autoComplete="off" spellCheck={false} />}
      </FilterField>
      <FilterField {...at("from")} label="From (UTC)" className="lg:w-52">
        {(control) => <input {...control} type="datetime-local" />}
      </FilterField>
      <FilterField {...at("to")} label="To (UTC)" className="lg:w-52">
        {(control) => <input {...control} type="datetime-local" />}
      </FilterField>
      <FilterActions submit="Search" clear="Clear" clearHref="/audit" filtered={filtered} className="col-span-2 flex items-center gap-3" />
    </FilterForm>
  );
}

/** The decision word of a policy decision or admission, shown before its details. */
function decisionWord(value: unknown): string | null {
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  const word = v.decision ?? v.admission ?? v.outcome ?? v.status;
  return typeof word === "string" ? word : null;
}

function EventsTable({
  events,
  brokenSeq,
  currencies,
}: {
  events: TAuditRow[];
  brokenSeq: bigint | null;
  currencies: ReadonlyMap<string, string>;
}) {
  const columns = ["#", "Time", "What happened", "Raw event"];
  return (
    <ResponsiveTable caption="Audit events, newest first" columns={columns}>
      {events.map((e) => {
        const decision = decisionWord(e.policyDecision);
        return (
          <CardRow key={e.seq.toString()} className={`align-top ${e.seq === brokenSeq ? "bg-red-50" : "hover:bg-slate-50"}`}>
            <Cell label="Event" className="min-w-0 font-mono text-[12px] text-slate-500 tabular-nums">
              #{e.seq.toString()}
              {e.seq === brokenSeq ? (
                <span className="mt-0.5 block font-sans text-[11px] font-semibold text-red-700">Broken here</span>
              ) : null}
            </Cell>
            <Cell label="Time" className="min-w-0 tabular-nums text-slate-700 md:whitespace-nowrap">
              <time dateTime={e.at.toISOString()}>{formatUtc(e.at)}</time>
            </Cell>
            <Cell label="What happened" className="col-span-2 min-w-0 md:col-span-1">
              <p data-testid="event-words" className="wrap-anywhere text-slate-900">
                {describeAuditEvent({ ...e, currencies })}
              </p>
              <p className="mt-0.5 flex flex-wrap items-center gap-x-2 text-[12px] text-slate-500">
                <code className="font-mono font-medium text-slate-700">{e.action}</code>
                {decision ? <span>policy: {decision}</span> : null}
                {e.ticket ? (
                  <Link
                    href={`/tickets/${e.ticket.id}`}
                    prefetch={false}
                    className="inline-flex min-h-6 items-center text-indigo-700 hover:underline"
                  >
                    Ticket #{e.ticket.number}
                  </Link>
                ) : null}
              </p>
            </Cell>
            <Cell label="Raw event" className="col-span-2 min-w-0 md:col-span-1 md:max-w-80">
              <details className="text-[12px]">
                <summary className="cursor-pointer text-indigo-700 hover:underline">Show the raw event</summary>
                <dl className="mt-1 space-y-1">
                  <div>
                    <dt className="text-slate-500">Actor</dt>
                    <dd className="font-mono wrap-anywhere">
                      {e.actorType}
                      {e.actorId ? ` · ${e.actorId}` : ""}
                    </dd>
                  </div>
                  <div>
                    <dt className="text-slate-500">Subject</dt>
                    <dd className="font-mono wrap-anywhere">
                      {e.subjectType}
                      {e.subjectId ? ` · ${e.subjectId}` : ""}
                    </dd>
                  </div>
                  <div>
                    <dt className="text-slate-500">Inputs</dt>
                    <dd>
                      <JsonDetails value={e.inputs} label={`the inputs of event ${e.seq}`} />
                    </dd>
                  </div>
                  {e.policyDecision ? (
                    <div>
                      <dt className="text-slate-500">Policy decision</dt>
                      <dd>
                        <JsonDetails value={e.policyDecision} label={`the policy decision of event ${e.seq}`} max={48} />
                      </dd>
                    </div>
                  ) : null}
                  {e.idempotencyKey ? (
                    <div>
                      <dt className="text-slate-500">Idempotency key</dt>
                      <dd className="font-mono wrap-anywhere">{e.idempotencyKey}</dd>
                    </div>
                  ) : null}
                </dl>
              </details>
            </Cell>
          </CardRow>
        );
      })}
    </ResponsiveTable>
  );
}

/** The signed export of the trail, for the time range in the filters (the other filters do not apply). */
function ExportLink({ from, to, admin }: { from?: string; to?: string; admin: boolean }) {
  const ranged = Boolean(from || to);
  return (
    <p className="mb-4 text-[13px] text-slate-600">
      <a href={hrefWith("/api/audit/export", { from, to })} download className="font-medium text-indigo-700 hover:underline">
        {ranged ? "Export this time range" : "Export the whole trail"} (JSON Lines, signed; sign-in addresses and session ids left out)
      </a>{" "}
      {admin ? (
        <>
          ·{" "}
          <a
            href={hrefWith("/api/audit/export", { from, to, security: "1" })}
            download
            className="font-medium text-indigo-700 hover:underline"
          >
            Security export
          </a>{" "}
          (with them; admins only){" "}
        </>
      ) : null}
      · anyone can check it without the app:{" "}
      <code className="font-mono text-[12px] wrap-anywhere">npm run audit:verify -- --file FILE --pubkey KEY</code>, with the public key
      below. The export is recorded in the trail.
    </p>
  );
}

export default async function AuditPage({ searchParams }: { searchParams: Promise<TSearchParams> }) {
  const viewer = await requireRole("audit");
  const params = await searchParams;
  const values = Object.fromEntries(FILTERS.map((f) => [f, first(params[f]) ?? ""])) as Record<(typeof FILTERS)[number], string>;
  const parsed = ZAuditQuery.safeParse({ ...values, after: first(params.after) ?? "", before: first(params.before) ?? "" });
  const [chain, result] = await Promise.all([verifyIncrementally(), parsed.success ? searchAudit({ query: parsed.data }) : null]);
  // The amounts some events record without their currency (the people are named by searchAudit).
  const currencies = result ? await loadAuditCurrencies({ events: result.events }) : new Map<string, string>();
  const errors = parsed.success ? {} : (z.flattenError(parsed.error).fieldErrors as Record<string, string[] | undefined>);
  const filterParams = parsed.success ? Object.fromEntries(FILTERS.map((f) => [f, parsed.data[f]])) : {};
  const filtered = FILTERS.some((f) => values[f]);
  const paged = parsed.success && (parsed.data.after !== undefined || parsed.data.before !== undefined);

  return (
    <>
      <PageHeader
        title="Audit"
        description="The append-only audit trail, newest first: who or what did what, to what and why, with the raw event behind each."
      />
      <ChainBanner verified={chain} />
      <Filters key={JSON.stringify(values)} values={values} errors={errors} />
      <ExportLink
        from={parsed.success ? parsed.data.from : undefined}
        to={parsed.success ? parsed.data.to : undefined}
        admin={mayUse(viewer.role, "admin")}
      />
      <AuditPublicKey />
      {!result ? (
        <EmptyState title="Check the search">
          {errors.after || errors.before ? "The page address is not valid. " : "Correct the highlighted field to search."}
        </EmptyState>
      ) : result.unresolved.ticket ? (
        <EmptyState title="No such ticket">No ticket has the number, id or external id “{result.unresolved.ticket}”.</EmptyState>
      ) : result.unresolved.actor ? (
        <EmptyState title="No such person">No user has the email “{result.unresolved.actor}”.</EmptyState>
      ) : (
        <>
          {result.ticket ? (
            <p className="mb-2 text-[13px] text-slate-600">
              Events of{" "}
              <Link href={`/tickets/${result.ticket.id}`} prefetch={false} className="font-medium text-indigo-700 hover:underline">
                ticket #{result.ticket.number}: {result.ticket.subject}
              </Link>
              , in the order they happened.
            </p>
          ) : null}
          {result.events.length === 0 ? (
            <EmptyState title={paged ? "No more events" : filtered ? "No events match this search" : "No events yet"}>
              {paged || filtered ? (
                <Link href={hrefWith("/audit", paged ? filterParams : {})} className="font-medium text-indigo-700 hover:underline">
                  {paged ? "Back to the newest events" : "Clear the search"}
                </Link>
              ) : (
                "Every action in Countersign writes an event here before it takes effect."
              )}
            </EmptyState>
          ) : (
            <>
              <EventsTable events={result.events} brokenSeq={brokenSeqOf(chain.report)} currencies={currencies} />
              <Pager
                label="Audit pages"
                previous={result.laterAfter ? hrefWith("/audit", { ...filterParams, after: result.laterAfter }) : null}
                next={result.earlierBefore ? hrefWith("/audit", { ...filterParams, before: result.earlierBefore }) : null}
                previousText="Later"
                nextText="Earlier"
              />
            </>
          )}
        </>
      )}
    </>
  );
}
