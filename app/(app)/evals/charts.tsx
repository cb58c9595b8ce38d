"use client";
import { BudgetHistogram } from "@/components/chart-budget-histogram";
import { HandoffReasonsChart } from "@/components/chart-handoff-reasons";
import { PassRateChart } from "@/components/chart-pass-rate";
import type { TDashboardStats } from "@/lib/eval/dashboard-stats";

/**
 * The three charts, as a client component: the page's payload carries their numbers (a few KB), and
 * the server renders their HTML once. As server components every bar, label and hidden table cell
 * went into the payload and was then rendered again into HTML; with 100k tickets behind them that
 * was most of the page's bytes and about a quarter of its time.
 */
export function EvalCharts({ stats }: { stats: Pick<TDashboardStats, "passRates" | "budget" | "handoffs"> }) {
  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-2 2xl:grid-cols-3">
      <PassRateChart data={stats.passRates} />
      <HandoffReasonsChart data={stats.handoffs} />
      <div className="lg:col-span-2 2xl:col-span-1">
        <BudgetHistogram data={stats.budget} />
      </div>
    </div>
  );
}
