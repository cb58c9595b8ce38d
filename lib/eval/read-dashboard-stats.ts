// Reading the numbers behind the leads' charts (shapes and rules in dashboard-stats.ts), and the
// three together, shared between views for a few seconds.
import { z } from "zod";
import type { TStopReason } from "../contracts/reason-codes";
import { db as defaultDb, type Db } from "../db";
import { costReport } from "./cost-report";
import { BUDGET_BUCKET_LABELS, BUDGET_RUNS_SAMPLE, budgetBucket, DASHBOARD_MAX_AGE_MS, HANDOFF_DAYS, HANDOFF_REASONS, type TBudgetDistribution, type TDashboardStats, type THandoffDay, type THandoffReasons, type TPassRate } from "./dashboard-stats";

// ─── pass rate by agent version ───────────────────────────────────────────────────────────────────

/** One entry per agent version, the version first graded earliest first. */
export async function passRateByAgentVersion(client: Db = defaultDb()): Promise<TPassRate[]> {
  const runs = await client.evalRun.findMany({ orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { agentVersion: true, passed: true, failed: true, createdAt: true } });
  const byVersion = new Map<string, TPassRate>();
  for (const run of runs) {
    const entry = byVersion.get(run.agentVersion) ?? { agentVersion: run.agentVersion, runs: 0, passed: 0, failed: 0, rate: 0, latest: run };
    entry.runs++;
    entry.passed += run.passed;
    entry.failed += run.failed;
    entry.latest = { passed: run.passed, failed: run.failed, createdAt: run.createdAt };
    byVersion.set(run.agentVersion, entry);
  }
  return [...byVersion.values()].map((e) => ({ ...e, rate: e.passed + e.failed > 0 ? e.passed / (e.passed + e.failed) : 0 }));
}

// ─── budget use ──────────────────────────────────────────────────────────────────────────────────

const ZBudgets = z.object({ maxSteps: z.number().positive(), maxTokens: z.number().positive(), maxWallMs: z.number().positive() });

/** How much of each budget the most recent `sample` finished runs used (live and simulated). */
export async function budgetUseDistribution(input: { sample?: number; client?: Db } = {}): Promise<TBudgetDistribution> {
  const client = input.client ?? defaultDb();
  const runs = await client.agentRun.findMany({
    where: { status: { notIn: ["running", "bypassed"] } },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take: input.sample ?? BUDGET_RUNS_SAMPLE,
    select: { stepsUsed: true, tokensUsed: true, elapsedMs: true, budgets: true, startedAt: true },
  });
  const dimensions = (
    [
      { key: "steps", label: "Steps", used: (r: (typeof runs)[number]) => r.stepsUsed, limit: (b: z.infer<typeof ZBudgets>) => b.maxSteps },
      { key: "tokens", label: "Tokens", used: (r: (typeof runs)[number]) => r.tokensUsed, limit: (b: z.infer<typeof ZBudgets>) => b.maxTokens },
      { key: "time", label: "Wall time", used: (r: (typeof runs)[number]) => r.elapsedMs, limit: (b: z.infer<typeof ZBudgets>) => b.maxWallMs },
    ] as const
  ).map((d) => ({ ...d, buckets: BUDGET_BUCKET_LABELS.map(() => 0) }));
  let counted = 0;
  for (const run of runs) {
    const budgets = ZBudgets.safeParse(run.budgets);
    if (!budgets.success) continue;
    counted++;
    for (const d of dimensions) d.buckets[budgetBucket(d.used(run), d.limit(budgets.data))]!++;
  }
  return {
    runs: counted,
    newest: runs[0]?.startedAt ?? null,
    oldest: runs.at(-1)?.startedAt ?? null,
    dimensions: dimensions.map(({ key, label, buckets }) => ({ key, label, buckets, atLimit: buckets.at(-1)! })),
  };
}

// ─── reasons for handoff ─────────────────────────────────────────────────────────────────────────

const DAY_MS = 86_400_000;
const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * Live agent runs that ended with needs_human, counted per UTC day and reason, for the `days` days
 * up to and including today. Simulated runs (shadow passes, previews) are left out: they re-run
 * tickets a person already has.
 */
export async function handoffReasonsByDay(input: { days?: number; now?: Date; client?: Db } = {}): Promise<THandoffReasons> {
  const client = input.client ?? defaultDb();
  const days = input.days ?? HANDOFF_DAYS;
  const now = input.now ?? new Date();
  const firstDay = new Date(Date.parse(`${utcDay(now)}T00:00:00.000Z`) - (days - 1) * DAY_MS);
  const end = new Date(firstDay.getTime() + days * DAY_MS);
  // "startedAt" is a UTC timestamp without time zone: compare it with UTC timestamps, never with a
  // timestamptz the session's time zone would shift.
  const utc = (at: Date) => at.toISOString().slice(0, 23).replace("T", " ");
  const rows = await client.$queryRaw<{ day: string; reason: string | null; n: number }[]>`
    SELECT to_char(date_trunc('day', "startedAt"), 'YYYY-MM-DD') AS day, reason, count(*)::int AS n
    FROM "AgentRun"
    WHERE status = 'needs_human' AND mode = 'live' AND "startedAt" >= ${utc(firstDay)}::timestamp AND "startedAt" < ${utc(end)}::timestamp
    GROUP BY 1, 2`;
  const byDay = new Map<string, THandoffDay>();
  for (let i = 0; i < days; i++) {
    const day = utcDay(new Date(firstDay.getTime() + i * DAY_MS));
    byDay.set(day, { day, total: 0, byReason: {} });
  }
  const totals = new Map<TStopReason, number>();
  for (const row of rows) {
    const entry = byDay.get(row.day);
    const reason = HANDOFF_REASONS.find((r) => r === row.reason);
    if (!entry || !reason) continue;
    const n = Number(row.n);
    entry.byReason[reason] = (entry.byReason[reason] ?? 0) + n;
    entry.total += n;
    totals.set(reason, (totals.get(reason) ?? 0) + n);
  }
  const reasons = [...totals].map(([reason, total]) => ({ reason, total })).sort((a, b) => b.total - a.total || HANDOFF_REASONS.indexOf(a.reason) - HANDOFF_REASONS.indexOf(b.reason));
  return { days: [...byDay.values()], reasons, total: reasons.reduce((n, r) => n + r.total, 0) };
}

// ─── the charts and the cost table together, shared for a few seconds ────────────────────────────────────────────────

/** The numbers behind all three charts and the cost table, read now. */
export async function dashboardStats(input: { now?: Date; client?: Db } = {}): Promise<TDashboardStats> {
  const client = input.client ?? defaultDb();
  const asOf = input.now ?? new Date();
  const [passRates, budget, handoffs, cost] = await Promise.all([
    passRateByAgentVersion(client),
    budgetUseDistribution({ client }),
    handoffReasonsByDay({ client, now: asOf }),
    costReport({ client, now: asOf }),
  ]);
  return { asOf, passRates, budget, handoffs, cost };
}

const recent = new WeakMap<Db, { asOf: number; stats: Promise<TDashboardStats> }>();

/**
 * dashboardStats, read at most once per `maxAgeMs` (DASHBOARD_MAX_AGE_MS) per database and shared by
 * every view meanwhile, the read in flight included. The numbers are the same for everyone who may
 * see them, and reading them scans every recent agent run: on each view that was most of the page's
 * time at scale. A failed read is not kept.
 */
export function recentDashboardStats(input: { now?: Date; client?: Db; maxAgeMs?: number } = {}): Promise<TDashboardStats> {
  const client = input.client ?? defaultDb();
  const now = (input.now ?? new Date()).getTime();
  const kept = recent.get(client);
  // A clock set back makes an age below zero: read again rather than keep the numbers indefinitely.
  if (kept && now - kept.asOf >= 0 && now - kept.asOf < (input.maxAgeMs ?? DASHBOARD_MAX_AGE_MS)) return kept.stats;
  const stats = dashboardStats({ client, now: new Date(now) });
  recent.set(client, { asOf: now, stats });
  stats.catch(() => {
    if (recent.get(client)?.stats === stats) recent.delete(client);
  });
  return stats;
}
