// Runs hold leases their process renews; batches of runs go through the job queue with progress a
// page can read. The crash case kills a real process (PostgreSQL only: PGlite is one process).
import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { killHard, spawnTs } from "../../testing/spawn-ts";
import { startTestWorker } from "../../testing/queue";
import { freshOrder, tabletTicket, user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import type { TPlanner } from "./planner";
import { runAgent } from "./run-agent";
import { interruptExpiredRuns } from "./sweep-runs";
import { batchProgress, runBatchItem, startBatch, type TBatchProgress } from "./batches";

const testDb = useTestDb(seedDemo);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Thinks for a while, then hands the ticket to a person. */
const slowPlanner = (ms: number): TPlanner => ({
  id: "slow",
  decide: async () => {
    await sleep(ms);
    return { decision: { action: "request_human_approval", args: { reason: "thought about it" } } };
  },
});

describe("run leases", () => {
  it("leaves a run alone while its process renews the lease, whoever sweeps meanwhile", async () => {
    const { client } = testDb();
    const tId = await tabletTicket(client, await freshOrder(client));
    // Server A works on a run with a 300 ms lease; server B restarts and sweeps, repeatedly.
    const running = runAgent({ ticketId: tId, planner: slowPlanner(1_200), leaseMs: 300 });
    const swept: string[] = [];
    for (let i = 0; i < 10; i++) {
      await sleep(120);
      swept.push(...(await interruptExpiredRuns()).interrupted);
    }
    const run = await running;
    expect(swept).toEqual([]);
    expect(run).toMatchObject({ status: "needs_human", reason: "planner_requested_handoff" });
    expect(await client.agentRun.findUniqueOrThrow({ where: { id: run.runId } })).toMatchObject({
      status: "needs_human",
      leaseExpiresAt: null,
    });
  });

  it.runIf(!!process.env.DATABASE_URL)(
    "interrupts a run whose process was killed, and returns its ticket to a person",
    async () => {
      const db = testDb();
      const tId = await tabletTicket(db.client, await freshOrder(db.client));
      const child = spawnTs("testing/run-then-hang.ts", [db.url!, tId, "600"]);
      for (let i = 0; i < 300 && !(await db.client.agentRun.count({ where: { ticketId: tId, status: "running" } })); i++) await sleep(50);
      expect(await db.client.ticket.findUniqueOrThrow({ where: { id: tId } })).toMatchObject({ status: "running" });
      await killHard(child);

      // Before the lease runs out, the sweep takes nothing; after, the run is interrupted, once.
      expect((await interruptExpiredRuns()).interrupted).toEqual([]);
      await sleep(800);
      const { interrupted } = await interruptExpiredRuns();
      expect(interrupted).toHaveLength(1);
      expect(await db.client.agentRun.findUniqueOrThrow({ where: { id: interrupted[0]! } })).toMatchObject({
        status: "interrupted",
        reason: "run_interrupted",
      });
      expect(await db.client.ticket.findUniqueOrThrow({ where: { id: tId } })).toMatchObject({
        status: "needs_human",
        reason: "run_interrupted",
      });
      expect(await db.client.auditEvent.count({ where: { action: "run.interrupted", subjectId: interrupted[0]! } })).toBe(1);
      expect((await interruptExpiredRuns()).interrupted).toEqual([]);
      // The ticket is a person's again, and the agent may run on it.
      expect((await runAgent({ ticketId: tId })).status).toBe("needs_human");
    },
    30_000,
  );
});

describe("batches of runs through the job queue", () => {
  it("runs 50 tickets as one bulk job, with progress readable while it works", async () => {
    const db = testDb();
    const world = await freshOrder(db.client);
    const tickets: string[] = [];
    for (let i = 0; i < 50; i++) tickets.push(await tabletTicket(db.client, world));
    const { batchId, total } = await startBatch({
      ticketIds: tickets,
      work: { kind: "bulk", mode: "live" },
      actor: await user(db.client, "REVIEWER"),
    });
    expect(total).toBe(50);
    expect(await batchProgress(batchId)).toMatchObject({ total: 50, queued: 50, done: 0, finished: false });

    const worker = await startTestWorker(db);
    const seen: TBatchProgress[] = [];
    try {
      for (let i = 0; i < 600; i++) {
        const p = (await batchProgress(batchId))!;
        seen.push(p);
        if (p.finished) break;
        await sleep(50);
      }
    } finally {
      await worker.stop(5_000);
    }
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ total: 50, done: 50, queued: 0, refused: 0, failed: 0, finished: true });
    // Read as it went: some reading saw part of the batch done.
    expect(seen.some((p) => p.done > 0 && p.done < 50)).toBe(true);
    expect(await db.client.agentRun.count({ where: { batchId, mode: "live", status: { not: "running" } } })).toBe(50);
    // A retried job finds its item settled and runs nothing.
    expect(await runBatchItem({ batchId, ticketId: tickets[0]! })).toBe("skipped");
  }, 120_000);

  it("marks an item refused in the lifecycle's words, not failed, when its ticket was resolved meanwhile", async () => {
    const db = testDb();
    const tId = await tabletTicket(db.client, await freshOrder(db.client));
    const { batchId } = await startBatch({
      ticketIds: [tId],
      work: { kind: "bulk", mode: "live" },
      actor: await user(db.client, "REVIEWER"),
    });
    await db.client.$executeRaw`UPDATE "Ticket" SET "status" = 'resolved' WHERE id = ${tId}::uuid`;
    // What the item's job does; the refusal is an outcome of the item, not an error of the job.
    expect(await runBatchItem({ batchId, ticketId: tId })).toBe("refused");
    expect(await db.client.agentBatchItem.findUniqueOrThrow({ where: { batchId_ticketId: { batchId, ticketId: tId } } })).toMatchObject({
      status: "refused",
      detail: "This ticket is resolved: run it in simulate mode to see what the agent would do.",
    });
    expect(await batchProgress(batchId)).toMatchObject({ total: 1, refused: 1, failed: 0, finished: true });
    expect(await db.client.agentRun.count({ where: { ticketId: tId } })).toBe(0);
  });
});
