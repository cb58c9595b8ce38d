import type { Metadata } from "next";
import { DailySeriesChart, formatSeriesValue } from "@/components/chart-daily-series";
import { EmptyState } from "@/components/empty-state";
import { formatUtc } from "@/components/format";
import { PageHeader } from "@/components/page-header";
import { requireRole } from "@/lib/auth/session";
import { SERIES, SERIES_DAYS, SERIES_KEYS } from "@/lib/contracts/daily-series";
import { readDailySeries } from "@/lib/eval/daily-series";
import { listSeriesAlerts } from "@/lib/eval/series-alerts";
import { loadPolicySettings } from "@/lib/policy/settings";
import { ThresholdForm } from "./threshold-form";

export const metadata: Metadata = { title: "Daily series" };

export default async function DailySeriesPage() {
  await requireRole("evals");
  const [series, alerts, settings] = await Promise.all([readDailySeries(), listSeriesAlerts(), loadPolicySettings()]);
  const thresholds = settings["watch.thresholds"];
  return (
    <div className="space-y-6">
      <PageHeader
        title="Daily series"
        description={`The last ${SERIES_DAYS} days, by UTC day, today last. A day past its series' threshold raises one alert through the notification webhook.`}
      />
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3 2xl:grid-cols-4">
        {SERIES_KEYS.map((key) => (
          <DailySeriesChart key={key} series={key} days={series.days} values={series.values[key]} threshold={thresholds[key]} />
        ))}
      </div>

      <section aria-labelledby="alerts-heading">
        <h2 id="alerts-heading" className="mb-2 text-[13px] font-semibold text-slate-900">
          Recent alerts
        </h2>
        {alerts.length ? (
          <ol className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
            {alerts.map((a) => (
              <li key={a.id} className="flex flex-col gap-1 px-4 py-2 text-[13px] sm:flex-row sm:items-baseline sm:gap-4">
                <span className="shrink-0 text-[12px] text-slate-500 tabular-nums sm:w-24">{a.day}</span>
                <span className="min-w-0 flex-1">
                  <span className="font-medium">{SERIES[a.series].label}</span> was {formatSeriesValue(a.series, a.value)},{" "}
                  {SERIES[a.series].alertWhen} its threshold of {formatSeriesValue(a.series, a.threshold)}
                </span>
                <span className="shrink-0 text-[12px] text-slate-500">
                  {a.notifiedAt ? <>posted {formatUtc(a.notifiedAt, "minute")}</> : "not posted (no webhook, or not taken yet)"}
                </span>
              </li>
            ))}
          </ol>
        ) : (
          <EmptyState title="No alerts yet">
            Set a threshold below; a day past it is listed here and posted to the notification webhook.
          </EmptyState>
        )}
      </section>

      <section aria-labelledby="thresholds-heading">
        <h2 id="thresholds-heading" className="mb-2 text-[13px] font-semibold text-slate-900">
          Thresholds
        </h2>
        <ThresholdForm thresholds={thresholds} />
      </section>
    </div>
  );
}
