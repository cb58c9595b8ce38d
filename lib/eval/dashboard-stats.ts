// The numbers behind the leads' charts, their shapes and rules: pass rate by agent version (from
// stored eval runs), how much of each budget recent agent runs used, and why runs were handed to a
// person, day by day. No database here, so the charts can be drawn in the browser too; the reads
// are in read-dashboard-stats.ts.
import { STATUS_OF_REASON, type TStopReason } from "../contracts/reason-codes";
import type { TCostReport } from "./cost-report";

// ─── pass rate by agent version ───────────────────────────────────────────────────────────────────

export interface TPassRate {
  agentVersion: string;
  runs: number;
  /** Episode rows (episodes × trials) over every run of this version. */
  passed: number;
  failed: number;
  /** passed / (passed + failed); 0 when there are no rows. */
  rate: number;
  /** The latest run of this version: its own pass rate and when it ran. */
  latest: { passed: number; failed: number; createdAt: Date };
}

// ─── budget use ──────────────────────────────────────────────────────────────────────────────────

export const BUDGET_RUNS_SAMPLE = 500;
/** Ten buckets of a tenth of the limit each, and an eleventh for runs that reached the limit. */
export const BUDGET_BUCKET_LABELS = ["0–10%", "10–20%", "20–30%", "30–40%", "40–50%", "50–60%", "60–70%", "70–80%", "80–90%", "90–100%", "at limit"] as const;

export type TBudgetKey = "steps" | "tokens" | "time";

export interface TBudgetDistribution {
  /** Runs counted: the most recent finished runs that entered the agent loop (bypassed runs never do). */
  runs: number;
  oldest: Date | null;
  newest: Date | null;
  dimensions: { key: TBudgetKey; label: string; buckets: number[]; atLimit: number }[];
}

/** Which bucket a share of the limit falls in: share ≥ 1 is the last ("at limit"). */
export function budgetBucket(used: number, limit: number): number {
  const share = limit > 0 ? used / limit : 1;
  if (share >= 1) return BUDGET_BUCKET_LABELS.length - 1;
  return Math.max(0, Math.min(9, Math.floor(share * 10)));
}

// ─── reasons for handoff ─────────────────────────────────────────────────────────────────────────

export const HANDOFF_DAYS = 14;
/** Every reason a run ends with needs_human, in the vocabulary's order. */
export const HANDOFF_REASONS = (Object.keys(STATUS_OF_REASON) as TStopReason[]).filter((r) => STATUS_OF_REASON[r] === "needs_human");

export interface THandoffDay {
  /** YYYY-MM-DD, UTC. */
  day: string;
  total: number;
  byReason: Partial<Record<TStopReason, number>>;
}

export interface THandoffReasons {
  days: THandoffDay[];
  /** Reasons that occur in the window, most frequent first, with their totals. */
  reasons: { reason: TStopReason; total: number }[];
  total: number;
}

// ─── the three together ──────────────────────────────────────────────────────────────────────────

/** How old the charts' numbers may be when the evaluations page shows them. */
export const DASHBOARD_MAX_AGE_MS = 10_000;

export interface TDashboardStats {
  /** When the numbers were read: the moment their queries were sent. */
  asOf: Date;
  passRates: TPassRate[];
  budget: TBudgetDistribution;
  handoffs: THandoffReasons;
  /** What agent runs and evaluations cost (cost-report.ts): it scans every run of the window too. */
  cost: TCostReport;
}
