import { REASON_LABELS, type TReasonOf, type TStopReason } from "@/lib/contracts/reason-codes";
import type { THandoffReasons } from "@/lib/eval/dashboard-stats";
import { ChartFigure } from "./chart-figure";
import { EmptyState } from "./empty-state";

/** One colour per needs_human reason (spelled out, so Tailwind keeps the classes); a new hand-over
 * reason fails the typecheck here until it has one. */
const COLOUR: Partial<Record<TStopReason, string>> = {
  draft_ready_for_review: "bg-indigo-500",
  no_approved_evidence: "bg-sky-500",
  unsupported_language: "bg-teal-600",
  evidence_off_topic: "bg-cyan-700",
  missing_order: "bg-amber-500",
  order_customer_mismatch: "bg-fuchsia-600",
  planner_requested_handoff: "bg-violet-500",
  step_budget_exhausted: "bg-rose-500",
  token_budget_exceeded: "bg-pink-400",
  latency_budget_exceeded: "bg-orange-500",
  tool_timeout: "bg-teal-500",
  tool_error: "bg-red-700",
  tool_invalid_output: "bg-lime-600",
  planner_error: "bg-slate-500",
} satisfies Record<TReasonOf<"needs_human">, string>;
const colour = (reason: TStopReason) => COLOUR[reason] ?? "bg-slate-400";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** "2026-11-08" → "Nov 8". */
const shortDay = (day: string) => `${MONTHS[Number(day.slice(5, 7)) - 1]} ${Number(day.slice(8, 10))}`;

/** Runs handed to a person per day, stacked by reason, with a legend carrying each reason's total. */
export function HandoffReasonsChart({ data }: { data: THandoffReasons }) {
  const max = Math.max(1, ...data.days.map((d) => d.total));
  const reasons = data.reasons.map((r) => r.reason);
  return (
    <ChartFigure
      id="chart-handoff"
      title="Reasons for handoff"
      description={`Live runs that ended with needs_human, per UTC day, last ${data.days.length} days (${data.total.toLocaleString("en-US")} in all).`}
      empty={
        data.total ? undefined : (
          <EmptyState title={`No handoffs in the last ${data.days.length} days`}>
            Runs that end with a person appear here by reason.
          </EmptyState>
        )
      }
      table={{
        caption: "Runs handed to a person per day and reason",
        columns: ["Day (UTC)", "Total", ...reasons.map((r) => REASON_LABELS[r])],
        rows: data.days.map((d) => [d.day, d.total, ...reasons.map((r) => d.byReason[r] ?? 0)]),
      }}
    >
      <div className="flex gap-2">
        <div className="flex h-28 flex-col justify-between text-right text-[10px] leading-none text-slate-400 tabular-nums">
          <span>{max}</span>
          <span>0</span>
        </div>
        <div className="min-w-0 flex-1">
          <div className="flex h-28 items-end gap-0.5 border-b border-l border-slate-300 pl-0.5 sm:gap-1">
            {data.days.map((d) => (
              <div key={d.day} className="flex h-full min-w-0 flex-1 flex-col justify-end" title={`${d.day}: ${d.total}`}>
                <div className="flex flex-col-reverse overflow-hidden rounded-t-sm" style={{ height: `${(d.total / max) * 100}%` }}>
                  {reasons.map((r) =>
                    d.byReason[r] ? <div key={r} className={colour(r)} style={{ height: `${(d.byReason[r]! / d.total) * 100}%` }} /> : null,
                  )}
                </div>
              </div>
            ))}
          </div>
          {/* Every third day is labelled, counting back from today; a label may overhang its column. */}
          <div className="relative mt-0.5 h-3 text-[10px] leading-3 text-slate-400">
            {data.days.map((d, i) =>
              (data.days.length - 1 - i) % 3 === 0 ? (
                <span
                  key={d.day}
                  className="absolute -translate-x-1/2 whitespace-nowrap"
                  style={{ left: `${((i + 0.5) / data.days.length) * 100}%` }}
                >
                  {shortDay(d.day)}
                </span>
              ) : null,
            )}
          </div>
        </div>
      </div>
      <ul className="mt-3 grid grid-cols-1 gap-x-4 gap-y-1 text-[12px] sm:grid-cols-2">
        {data.reasons.map((r) => (
          <li key={r.reason} className="flex min-w-0 items-center gap-2">
            <span className={`size-2.5 shrink-0 rounded-sm ${colour(r.reason)}`} />
            <span className="min-w-0 flex-1 truncate text-slate-700" title={r.reason}>
              {REASON_LABELS[r.reason]}
            </span>
            <span className="tabular-nums text-slate-900">{r.total}</span>
          </li>
        ))}
      </ul>
    </ChartFigure>
  );
}
