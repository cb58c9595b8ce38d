import { newPglite } from "../db/pglite";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { seedDemo } from "../../prisma/seed/demo";
import { openDb } from "../db";
import { budgetBucket, DASHBOARD_MAX_AGE_MS, HANDOFF_REASONS } from "./dashboard-stats";
import { budgetUseDistribution, handoffReasonsByDay, passRateByAgentVersion, recentDashboardStats } from "./read-dashboard-stats";

const testDb = useTestDb(seedDemo);
const NOW = new Date("2026-11-22T15:00:00.000Z");
const BUDGETS = { maxSteps: 8, maxTokens: 6000, maxWallMs: 15000, toolTimeoutMs: 2000 };
let ticketId = "";

async function run(over: { status: "running" | "bypassed" | "blocked" | "needs_human" | "auto_approved" | "completed"; reason?: string | null; mode?: "live" | "simulate"; startedAt: Date; stepsUsed?: number; tokensUsed?: number; elapsedMs?: number; budgets?: object }) {
  const { client } = testDb();
  await client.agentRun.create({
    data: { ticketId, planner: "rule", agentVersion: "refund-agent-v2", bundleVersion: "b", policyVersion: "p", manifest: {}, budgets: BUDGETS, mode: "live", reason: null, ...over },
  });
}

beforeAll(async () => {
  const { client } = testDb();
  ticketId = (await client.ticket.findUniqueOrThrow({ where: { externalId: "demo-cracked-tablet" } })).id;
});

describe("passRateByAgentVersion", () => {
  it("sums episode rows per version, versions in the order they were first graded", async () => {
    const { client } = testDb();
    const base = { datasetVersion: "d", datasetHash: "h", graderVersion: "g", modelId: "m", commit: "c", receipt: {} };
    await client.evalRun.create({ data: { ...base, agentVersion: "v1", passed: 40, failed: 4, createdAt: new Date("2026-11-01T00:00:00Z") } });
    await client.evalRun.create({ data: { ...base, agentVersion: "v2", passed: 43, failed: 1, createdAt: new Date("2026-11-02T00:00:00Z") } });
    await client.evalRun.create({ data: { ...base, agentVersion: "v1", passed: 44, failed: 0, createdAt: new Date("2026-11-03T00:00:00Z") } });
    const rates = await passRateByAgentVersion(client);
    expect(rates.map((r) => [r.agentVersion, r.runs, r.passed, r.failed])).toEqual([
      ["v1", 2, 84, 4],
      ["v2", 1, 43, 1],
    ]);
    expect(rates[0]!.rate).toBeCloseTo(84 / 88);
    expect(rates[0]!.latest).toMatchObject({ passed: 44, failed: 0 });
  });
});

describe("budget use", () => {
  it("buckets a share of the limit by tenths, with reaching the limit on its own", () => {
    expect([0, 0.5, 0.99, 1, 5.5, 7.99, 8, 9].map((used) => budgetBucket(used, 8))).toEqual([0, 0, 1, 1, 6, 9, 10, 10]);
    expect(budgetBucket(0, 0)).toBe(10);
  });

  it("counts the latest finished runs that entered the loop, per budget", async () => {
    const at = (h: number) => new Date(NOW.getTime() - h * 3_600_000);
    await run({ status: "needs_human", reason: "draft_ready_for_review", startedAt: at(1), stepsUsed: 5, tokensUsed: 0, elapsedMs: 1500 });
    await run({ status: "needs_human", reason: "step_budget_exhausted", startedAt: at(2), stepsUsed: 8, tokensUsed: 3000, elapsedMs: 14999 });
    await run({ status: "blocked", reason: "forbidden_action", mode: "simulate", startedAt: at(3), stepsUsed: 1, tokensUsed: 6500, elapsedMs: 100 });
    await run({ status: "bypassed", reason: "stale_intake_bundle", startedAt: at(0.5) }); // never entered the loop
    await run({ status: "running", startedAt: at(0.1), stepsUsed: 2 }); // not finished
    await run({ status: "completed", startedAt: at(4), stepsUsed: 1, budgets: { nonsense: true } }); // unreadable budgets
    await run({ status: "completed", startedAt: at(100), stepsUsed: 4 }); // outside a sample of 4

    const d = await budgetUseDistribution({ sample: 4 });
    expect(d.runs).toBe(3);
    const steps = d.dimensions.find((x) => x.key === "steps")!;
    expect(steps.buckets).toEqual([0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 1]); // 1/8, 5/8, 8/8
    expect(steps.atLimit).toBe(1);
    expect(d.dimensions.find((x) => x.key === "tokens")!.buckets).toEqual([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    expect(d.dimensions.find((x) => x.key === "time")!.buckets).toEqual([1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0]); // 100, 1500 and 14999 of 15000 ms
    expect(d.newest!.getTime()).toBe(at(1).getTime());
  });
});

describe("handoffReasonsByDay", () => {
  it("counts live needs_human runs per UTC day and reason over the window, today included", async () => {
    const { client } = testDb();
    await client.agentRun.deleteMany({});
    await run({ status: "needs_human", reason: "missing_order", startedAt: new Date("2026-11-22T00:00:00.000Z") });
    await run({ status: "needs_human", reason: "missing_order", startedAt: new Date("2026-11-21T23:59:59.999Z") });
    await run({ status: "needs_human", reason: "tool_timeout", startedAt: new Date("2026-11-21T08:00:00.000Z") });
    await run({ status: "needs_human", reason: "draft_ready_for_review", startedAt: new Date("2026-11-09T00:00:00.000Z") }); // first day of 14
    await run({ status: "needs_human", reason: "draft_ready_for_review", startedAt: new Date("2026-11-08T23:59:59.999Z") }); // before the window
    await run({ status: "needs_human", reason: "tool_timeout", mode: "simulate", startedAt: new Date("2026-11-21T09:00:00.000Z") }); // a shadow run
    await run({ status: "blocked", reason: "forbidden_action", startedAt: new Date("2026-11-21T09:00:00.000Z") }); // not a handoff

    const h = await handoffReasonsByDay({ now: NOW });
    expect(h.days).toHaveLength(14);
    expect(h.days[0]).toEqual({ day: "2026-11-09", total: 1, byReason: { draft_ready_for_review: 1 } });
    expect(h.days.at(-2)).toEqual({ day: "2026-11-21", total: 2, byReason: { missing_order: 1, tool_timeout: 1 } });
    expect(h.days.at(-1)).toEqual({ day: "2026-11-22", total: 1, byReason: { missing_order: 1 } });
    expect(h.total).toBe(4);
    expect(h.reasons).toEqual([
      { reason: "missing_order", total: 2 },
      { reason: "draft_ready_for_review", total: 1 },
      { reason: "tool_timeout", total: 1 },
    ]);
    expect(HANDOFF_REASONS).toContain("step_budget_exhausted");
    expect(HANDOFF_REASONS).not.toContain("forbidden_action");
  });
});

describe("recentDashboardStats", () => {
  const at = (ms: number) => new Date(NOW.getTime() + ms);

  it("reads the numbers once per maximum age, shares them meanwhile, then reads them again", async () => {
    const { client, roundTrips } = testDb();
    const first = await recentDashboardStats({ now: at(0) });
    expect(first.asOf).toEqual(at(0));
    await client.evalRun.create({ data: { datasetVersion: "d", datasetHash: "h", graderVersion: "g", modelId: "m", commit: "c", receipt: {}, agentVersion: "v-recent", passed: 1, failed: 0 } });

    const before = roundTrips.count;
    const shared = await recentDashboardStats({ now: at(DASHBOARD_MAX_AGE_MS - 1) });
    expect(shared).toBe(first);
    expect(roundTrips.count).toBe(before);

    const fresh = await recentDashboardStats({ now: at(DASHBOARD_MAX_AGE_MS) });
    expect(fresh.asOf).toEqual(at(DASHBOARD_MAX_AGE_MS));
    expect(fresh.passRates.map((r) => r.agentVersion)).toContain("v-recent");
    expect(first.passRates.map((r) => r.agentVersion)).not.toContain("v-recent");
  });

  it("shares a read in flight, and reads again when the clock is set back", async () => {
    const later = at(10 * DASHBOARD_MAX_AGE_MS);
    const a = recentDashboardStats({ now: later });
    expect(recentDashboardStats({ now: new Date(later.getTime() + 1) })).toBe(a);
    await a;
    const back = await recentDashboardStats({ now: at(9 * DASHBOARD_MAX_AGE_MS) });
    expect(back).not.toBe(await a);
    expect(back.asOf).toEqual(at(9 * DASHBOARD_MAX_AGE_MS));
  });

  it("does not keep a failed read", async () => {
    // A real database without the tables: every read fails.
    const pglite = newPglite();
    const empty = openDb({ kind: "pglite", pglite });
    try {
      await expect(recentDashboardStats({ client: empty.client, now: NOW })).rejects.toThrow();
      const before = empty.roundTrips.count;
      await expect(recentDashboardStats({ client: empty.client, now: NOW })).rejects.toThrow();
      expect(empty.roundTrips.count).toBeGreaterThan(before);
    } finally {
      await empty.close();
      await pglite.close();
    }
  });
});
