// What /evals says agent runs cost: per kind of run over the last 30 days, per run, per ticket and per
// resolved ticket, and per day for the last 14; a run with no price counted as unpriced, a run older
// than the window left out. Real runs of the rule planner, their cost then set as a model run's would be.
import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { freshOrder, tabletTicket } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { runAgent } from "../agent/run-agent";
import { COST_DAYS_SHOWN, costReport } from "./cost-report";
import { dashboardStats } from "./read-dashboard-stats";

const testDb = useTestDb(seedDemo);
const NOW = new Date();
const DAY = 86_400_000;

async function runOn(mode: "live" | "simulate", costUsd: string | null, daysAgo = 0) {
  const { client } = testDb();
  const ticketId = await tabletTicket(client, await freshOrder(client));
  const run = await runAgent({ ticketId, mode, client });
  await client.agentRun.update({ where: { id: run.runId }, data: { costUsd, startedAt: new Date(NOW.getTime() - daysAgo * DAY) } });
  return ticketId;
}

describe("costReport", () => {
  it("adds up the window's runs per kind, per ticket and per resolved ticket, and leaves older runs out", async () => {
    const { client } = testDb();
    const resolved = await runOn("live", "0.012000");
    await client.ticket.update({ where: { id: resolved }, data: { status: "resolved" } });
    await runOn("live", "0.008000", 3);
    await runOn("live", null);
    await runOn("live", "5.000000", 31);
    await runOn("simulate", "0.004000", 1);

    const report = await costReport({ now: NOW });
    const live = report.lines.find((l) => l.kind === "live")!;
    expect(live).toMatchObject({ runs: 3, unpriced: 1, tickets: 3, resolvedTickets: 1 });
    expect(live.totalUsd).toBeCloseTo(0.02, 9);
    expect(live.perRunUsd).toBeCloseTo(0.01, 9);
    expect(live.perTicketUsd).toBeCloseTo(0.02 / 3, 9);
    expect(live.perResolvedTicketUsd).toBeCloseTo(0.02, 9);
    const shadow = report.lines.find((l) => l.kind === "shadow")!;
    expect(shadow).toMatchObject({ runs: 1, unpriced: 0, tickets: 1 });
    expect(shadow.totalUsd).toBeCloseTo(0.004, 9);

    expect(report.days).toHaveLength(COST_DAYS_SHOWN);
    const day = (n: number) => report.days.find((d) => d.day === new Date(NOW.getTime() - n * DAY).toISOString().slice(0, 10))!;
    expect(day(0).live).toBeCloseTo(0.012, 9);
    expect(day(3).live).toBeCloseTo(0.008, 9);
    expect(day(1).shadow).toBeCloseTo(0.004, 9);
  });

  it("is read with the charts, so /evals shares it between views", async () => {
    const stats = await dashboardStats({ now: NOW });
    expect(stats.cost).toEqual(await costReport({ now: NOW }));
  });
});
