import type { TPassRate } from "@/lib/eval/dashboard-stats";
import { ChartFigure, formatShare } from "./chart-figure";
import { EmptyState } from "./empty-state";

const tone = (rate: number) => (rate >= 1 ? "bg-emerald-500" : rate >= 0.9 ? "bg-amber-500" : "bg-red-500");

/** Pass rate by agent version: one horizontal bar per version, over every episode row of its runs. */
export function PassRateChart({ data }: { data: TPassRate[] }) {
  return (
    <ChartFigure
      id="chart-pass-rate"
      title="Pass rate by agent version"
      description="Episode rows passed, over every eval run of each version."
      empty={data.length ? undefined : <EmptyState title="No eval runs yet">Run npm run eval to grade a dataset.</EmptyState>}
      table={{
        caption: "Pass rate by agent version",
        columns: ["Agent version", "Pass rate", "Rows passed", "Rows failed", "Runs", "Latest run"],
        rows: data.map((d) => [
          d.agentVersion,
          formatShare(d.rate),
          d.passed,
          d.failed,
          d.runs,
          `${d.latest.passed} of ${d.latest.passed + d.latest.failed} passed`,
        ]),
      }}
    >
      <ul className="space-y-3">
        {data.map((d) => (
          <li key={d.agentVersion}>
            <div className="flex items-baseline justify-between gap-2 text-[12px]">
              <code className="truncate font-mono text-slate-800">{d.agentVersion}</code>
              <span className="shrink-0 tabular-nums text-slate-900">
                <span className="font-semibold">{formatShare(d.rate)}</span>{" "}
                <span className="text-slate-500">
                  {d.passed.toLocaleString("en-US")}/{(d.passed + d.failed).toLocaleString("en-US")} · {d.runs}{" "}
                  {d.runs === 1 ? "run" : "runs"}
                </span>
              </span>
            </div>
            <div className="relative mt-1 h-3 overflow-hidden rounded bg-slate-100">
              <div className={`h-full ${tone(d.rate)}`} style={{ width: `${d.rate * 100}%` }} />
              {/* 90% guide line */}
              <div className="absolute inset-y-0 left-[90%] w-px bg-white/80" />
            </div>
          </li>
        ))}
      </ul>
      <div className="mt-2 flex justify-between text-[10px] text-slate-400 tabular-nums">
        <span>0%</span>
        <span>50%</span>
        <span>100%</span>
      </div>
    </ChartFigure>
  );
}
