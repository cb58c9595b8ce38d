import { BUDGET_BUCKET_LABELS, type TBudgetDistribution } from "@/lib/eval/dashboard-stats";
import { ChartFigure } from "./chart-figure";
import { formatUtc } from "./format";
import { EmptyState } from "./empty-state";

/** One histogram per budget (steps, tokens, wall time): how many runs used what share of the limit. */
export function BudgetHistogram({ data }: { data: TBudgetDistribution }) {
  const window = data.oldest && data.newest ? `runs started ${formatUtc(data.oldest, "minute")} – ${formatUtc(data.newest, "minute")}` : "";
  return (
    <ChartFigure
      id="chart-budget"
      title="Budget use distribution"
      description={
        <>
          Share of each limit used by the latest {data.runs.toLocaleString("en-US")} finished {data.runs === 1 ? "run" : "runs"} that
          entered the loop; the red bar is runs that reached the limit.
        </>
      }
      empty={
        data.runs ? undefined : <EmptyState title="No agent runs yet">Budget use appears once the agent has run on tickets.</EmptyState>
      }
      table={{
        caption: `Runs per share of the budget used${window ? `, ${window}` : ""}`,
        columns: ["Budget", ...BUDGET_BUCKET_LABELS],
        rows: data.dimensions.map((d) => [d.label, ...d.buckets]),
      }}
    >
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        {data.dimensions.map((d) => {
          const max = Math.max(1, ...d.buckets);
          return (
            <div key={d.key} className="min-w-0">
              <div className="flex items-baseline justify-between text-[12px]">
                <span className="font-medium text-slate-800">{d.label}</span>
                <span className={`tabular-nums ${d.atLimit ? "text-red-700" : "text-slate-500"}`}>{d.atLimit} at limit</span>
              </div>
              <div className="mt-1 flex h-20 items-end gap-px border-b border-slate-300">
                {d.buckets.map((n, i) => (
                  <div key={i} className="flex h-full flex-1 flex-col justify-end" title={`${BUDGET_BUCKET_LABELS[i]}: ${n}`}>
                    {n ? <span className="mb-px text-center text-[9px] leading-none text-slate-500 tabular-nums">{n}</span> : null}
                    <div
                      className={`rounded-t-sm ${i === BUDGET_BUCKET_LABELS.length - 1 ? "bg-red-500" : "bg-indigo-500"}`}
                      style={{ height: `${(n / max) * 80}%`, minHeight: n ? 2 : 0 }}
                    />
                  </div>
                ))}
              </div>
              {/* Ticks under the bucket edges: 0% and 50% of the limit, and the at-limit bucket. */}
              <div className="relative mt-0.5 h-3 text-[10px] leading-3 text-slate-400">
                <span className="absolute left-0">0%</span>
                <span className="absolute -translate-x-1/2" style={{ left: `${(5 / BUDGET_BUCKET_LABELS.length) * 100}%` }}>
                  50%
                </span>
                <span className="absolute right-0">limit</span>
              </div>
            </div>
          );
        })}
      </div>
    </ChartFigure>
  );
}
