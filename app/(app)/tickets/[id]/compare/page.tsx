import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { RunBudgets } from "@/components/budget-bar";
import { EmptyState } from "@/components/empty-state";
import { ReasonText, StatusBadge } from "@/components/status-badge";
import { TraceStepCard } from "@/components/trace-timeline";
import { requireRole } from "@/lib/auth/session";
import type { TStepChange } from "@/lib/agent/compare-runs";
import { loadRunComparison, type TComparedRun, type TRunComparisonPage } from "@/lib/agent/load-run-comparison";
import { findTicket } from "@/lib/tickets/find-ticket";
import { Breadcrumbs } from "@/components/breadcrumbs";

export const metadata: Metadata = { title: "Compare runs" };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type TSearchParams = Record<string, string | string[] | undefined>;
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
const utc = (d: Date) => `${d.toISOString().replace("T", " ").slice(0, 19)} UTC`;

const CHANGE = {
  same: { label: "Same", badge: "bg-slate-100 text-slate-700 ring-slate-200", border: "border-slate-200" },
  changed: { label: "Changed", badge: "bg-amber-50 text-amber-800 ring-amber-200", border: "border-amber-300" },
  added: { label: "Added in B", badge: "bg-emerald-50 text-emerald-800 ring-emerald-200", border: "border-emerald-300" },
  removed: { label: "Only in A", badge: "bg-red-50 text-red-800 ring-red-200", border: "border-red-300" },
} satisfies Record<TStepChange, { label: string; badge: string; border: string }>;

function RunCard({ run, side }: { run: TComparedRun; side: "A" | "B" }) {
  return (
    <section aria-label={`Run ${side}`} className="min-w-0 rounded-lg border border-slate-200 bg-white">
      <header className="flex flex-wrap items-center gap-2 border-b border-slate-100 px-4 py-2 text-[13px]">
        <span className="font-semibold text-slate-900">Run {side}</span>
        {run.mode === "simulate" ? (
          <span className="rounded bg-violet-100 px-1.5 py-0.5 text-[11px] font-semibold tracking-wide text-violet-800 uppercase">
            Simulated
          </span>
        ) : null}
        <StatusBadge status={run.status} />
        <ReasonText reason={run.reason} />
      </header>
      <p className="px-4 pt-2 text-[12px] break-words text-slate-500">
        {run.planner} planner · {run.agentVersion} · {utc(run.startedAt)}
        {run.startedBy ? ` · by ${run.startedBy.name}` : ""}
      </p>
      <RunBudgets run={run} />
    </section>
  );
}

/** Where each step of a run starts among its steps' time, for its duration bar. */
function starts(run: TComparedRun): { start: Map<number, number>; total: number } {
  const start = new Map<number, number>();
  let total = 0;
  for (const e of run.traceEvents) {
    start.set(e.step, total);
    total += e.latencyMs;
  }
  return { start, total };
}

function RunChooser({ page, a, b }: { page: TRunComparisonPage; a?: string; b?: string }) {
  // What tells runs apart first: when, then who planned it; short enough for a phone's select.
  const option = (r: TRunComparisonPage["offered"][number]) =>
    `${r.startedAt.toISOString().replace("T", " ").slice(0, 19)} · ${r.planner} · ${r.mode} · ${r.status}`;
  const select = (name: "a" | "b", value: string | undefined) => (
    <div className="min-w-0 flex-1">
      <label htmlFor={`run-${name}`} className="block text-[12px] font-medium text-slate-700">
        {name === "a" ? "First run (A)" : "Second run (B)"}
      </label>
      <select
        id={`run-${name}`}
        name={name}
        defaultValue={value}
        className="mt-1 h-8 w-full min-w-0 rounded-md border border-slate-300 bg-white px-2 text-[12px]"
      >
        {page.offered.map((r) => (
          <option key={r.id} value={r.id}>
            {option(r)}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <form
      method="get"
      aria-label="Choose the runs"
      className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-3 sm:flex-row sm:items-end"
    >
      {select("a", a)}
      {select("b", b)}
      <button
        type="submit"
        className="inline-flex h-8 shrink-0 items-center justify-center rounded-md border border-slate-300 bg-white px-3 text-[13px] font-medium text-slate-800 hover:bg-slate-50"
      >
        Compare
      </button>
    </form>
  );
}

/** /tickets/<id>/compare?a=<run>&b=<run>: two runs of one ticket, step by step (by default its two newest). */
export default async function CompareRunsPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<TSearchParams>;
}) {
  await requireRole("tickets");
  const { id } = await params;
  const query = await searchParams;
  const [a, b] = [first(query.a), first(query.b)];
  if (!UUID.test(id)) {
    // As the ticket page: a ticket's number or external id works too.
    const ref = decodeURIComponent(id);
    const found = ref.length <= 200 ? await findTicket(ref) : null;
    if (!found) notFound();
    const rest = new URLSearchParams(Object.entries({ a, b }).filter((e): e is [string, string] => e[1] !== undefined));
    redirect(`/tickets/${found.id}/compare${rest.size ? `?${rest}` : ""}`);
  }
  const page = await loadRunComparison({ ticketId: id, a, b });
  if (!page) notFound();
  const { ticket, comparison } = page;

  return (
    <div className="space-y-4">
      <div className="min-w-0">
        <Breadcrumbs
          trail={[
            { href: "/", label: "Queue" },
            { href: `/tickets/${ticket.id}`, label: `Ticket #${ticket.number}` },
          ]}
          current="Compare runs"
        />
        <h1 className="text-lg font-semibold tracking-tight wrap-anywhere text-slate-900">Compare runs of ticket #{ticket.number}</h1>
        <p className="text-[13px] wrap-anywhere text-slate-600">{ticket.subject}</p>
      </div>

      {!comparison ? (
        <EmptyState title="Nothing to compare yet">
          This ticket has {page.offered.length === 1 ? "one run" : "no runs"}: a comparison needs two.{" "}
          <Link href={`/tickets/${ticket.id}`} className="font-medium text-indigo-700 hover:underline">
            Back to the ticket
          </Link>
        </EmptyState>
      ) : (
        <>
          <RunChooser page={page} a={comparison.a.id} b={comparison.b.id} />
          <div className="grid grid-cols-1 gap-3 md:grid-cols-2">
            <RunCard run={comparison.a} side="A" />
            <RunCard run={comparison.b} side="B" />
          </div>
          <Steps comparison={comparison} />
        </>
      )}
    </div>
  );
}

function Steps({ comparison }: { comparison: NonNullable<TRunComparisonPage["comparison"]> }) {
  const { steps, counts, firstDifference } = comparison;
  const timeA = starts(comparison.a);
  const timeB = starts(comparison.b);
  const differ = steps.length - counts.same;
  return (
    <section aria-labelledby="steps-heading" className="space-y-2">
      <h2 id="steps-heading" className="text-[13px] font-semibold text-slate-900">
        Step by step
      </h2>
      <p className="text-[13px] text-slate-700" data-testid="comparison-summary">
        {steps.length === 0
          ? "Neither run entered the agent loop: no steps to compare."
          : differ === 0
            ? `The runs took the same ${steps.length} steps with the same decisions; only durations and tokens may differ.`
            : `${differ} of ${steps.length} steps differ, the first at step ${firstDifference}: ${counts.same} same, ${counts.changed} changed, ${counts.added} added in B, ${counts.removed} only in A.`}{" "}
        <span className="text-slate-500">Steps are aligned by position, as the evaluation compares paths.</span>
      </p>
      <ol aria-label="Both runs' steps, aligned by position" className="space-y-2">
        {steps.map((s) => {
          const c = CHANGE[s.change];
          const first = s.step === firstDifference;
          return (
            <li
              key={s.step}
              aria-label={`Step ${s.step}: ${c.label.toLowerCase()}`}
              data-change={s.change}
              className={`min-w-0 rounded-lg border-l-4 bg-white ring-1 ring-slate-200 ${c.border}`}
            >
              <div className="flex flex-wrap items-center gap-2 border-b border-slate-100 px-3 py-1.5 text-[12px]">
                <span className="font-semibold text-slate-900 tabular-nums">Step {s.step}</span>
                <span className={`rounded-full px-2 py-0.5 text-[11px] font-medium ring-1 ring-inset ${c.badge}`}>{c.label}</span>
                {first ? <span className="text-[11px] font-semibold tracking-wide text-red-800 uppercase">first difference</span> : null}
                {s.differs.length ? <span className="text-slate-600">differs in {s.differs.join(", ")}</span> : null}
              </div>
              <div className="grid grid-cols-1 divide-y divide-slate-100 md:grid-cols-2 md:divide-x md:divide-y-0">
                {(["A", "B"] as const).map((side) => {
                  const step = side === "A" ? s.a : s.b;
                  const time = side === "A" ? timeA : timeB;
                  return (
                    <div key={side} className="min-w-0 space-y-2 px-3 py-2.5">
                      <p className="text-[11px] font-medium tracking-wide text-slate-500 uppercase">Run {side}</p>
                      {step ? (
                        <TraceStepCard
                          step={step}
                          startMs={time.start.get(step.step) ?? 0}
                          totalMs={time.total}
                          differs={s.differs}
                          numbered={false}
                        />
                      ) : (
                        <p className="text-[12px] text-slate-500 italic">
                          No step {s.step}: run {side} had ended.
                        </p>
                      )}
                    </div>
                  );
                })}
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
