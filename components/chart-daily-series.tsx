import { SERIES, type TSeriesKey, type TSeriesUnit } from "@/lib/contracts/daily-series";
import { ChartFigure } from "./chart-figure";

const FORMAT: Record<TSeriesUnit, (v: number) => string> = {
  count: (v) => v.toLocaleString("en-US"),
  percent: (v) => `${Math.round(v * 10) / 10}%`,
  minutes: (v) => (v >= 120 ? `${Math.round(v / 6) / 10} h` : `${Math.round(v)} min`),
  cents: (v) => `${(v / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`,
  usd: (v) => `${v.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: v < 1 ? 4 : 2 })} USD`,
};

/** A series' value in its unit's words; "–" for a day with nothing to measure. */
export function formatSeriesValue(key: TSeriesKey, value: number | null): string {
  return value === null ? "–" : FORMAT[SERIES[key].unit](value);
}

/**
 * One daily series: a bar per UTC day, today last, the threshold as a dashed line, and the days
 * past it in red. Plain markup, rendered on the server; the numbers also as a table for screen readers.
 */
export function DailySeriesChart({
  series,
  days,
  values,
  threshold,
}: {
  series: TSeriesKey;
  days: string[];
  values: (number | null)[];
  threshold?: number;
}) {
  const info = SERIES[series];
  const top = Math.max(threshold ?? 0, info.unit === "percent" ? 100 : 0, ...values.map((v) => v ?? 0)) || 1;
  const past = (v: number | null) => v !== null && threshold !== undefined && (info.alertWhen === "above" ? v > threshold : v < threshold);
  const today = values.at(-1) ?? null;
  return (
    <ChartFigure
      id={`chart-series-${series}`}
      title={info.label}
      description={info.description}
      table={{
        caption: `${info.label} per day`,
        columns: ["Day", info.label, "Past the threshold"],
        rows: days.map((d, i) => [d, formatSeriesValue(series, values[i] ?? null), past(values[i] ?? null) ? "yes" : "no"]),
      }}
    >
      <p className="mb-2 flex items-baseline justify-between gap-2 text-[12px] text-slate-500">
        <span>
          Today{" "}
          <span className={`text-[15px] font-semibold tabular-nums ${past(today) ? "text-red-700" : "text-slate-900"}`}>
            {formatSeriesValue(series, today)}
          </span>
        </span>
        <span className="tabular-nums">
          {threshold === undefined ? "No threshold" : `Alert ${info.alertWhen} ${formatSeriesValue(series, threshold)}`}
        </span>
      </p>
      <div className="relative flex h-20 items-end gap-px border-b border-slate-200">
        {values.map((v, i) => (
          <div
            key={days[i]}
            className={`flex-1 rounded-t-sm ${v === null ? "" : past(v) ? "bg-red-500" : "bg-indigo-500"}`}
            style={{ height: v === null ? 0 : `${Math.max(v > 0 ? 2 : 0, (v / top) * 100)}%` }}
          />
        ))}
        {threshold === undefined ? null : (
          <div className="absolute inset-x-0 border-t border-dashed border-amber-500" style={{ bottom: `${(threshold / top) * 100}%` }} />
        )}
      </div>
      <div className="mt-1 flex justify-between text-[10px] text-slate-500 tabular-nums">
        <span>{days[0]}</span>
        <span>{days.at(-1)}</span>
      </div>
    </ChartFigure>
  );
}
