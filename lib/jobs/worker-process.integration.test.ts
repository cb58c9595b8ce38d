// `npm run worker` as its own process (PostgreSQL): it works the queue, and on SIGTERM it stops
// cleanly – the job in hand finishes or is released, the process exits 0, nothing stays taken.
import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { spawnTs } from "../../testing/spawn-ts";
import { freshOrder, tabletTicket, user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { batchProgress, startBatch } from "../agent/batches";
import { QUEUE_SCHEMA } from "./queue";

const testDb = useTestDb(seedDemo);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.runIf(!!process.env.DATABASE_URL)("the worker process", () => {
  it("stops on SIGTERM without leaving a job taken, and a second worker finishes the batch", async () => {
    const db = testDb();
    const world = await freshOrder(db.client);
    const tickets: string[] = [];
    for (let i = 0; i < 30; i++) tickets.push(await tabletTicket(db.client, world));
    const { batchId } = await startBatch({
      ticketIds: tickets,
      work: { kind: "bulk", mode: "live" },
      actor: await user(db.client, "REVIEWER"),
    });

    const env = { DATABASE_URL: db.url!, WORKER: "on" };
    const worker = spawnTs("scripts/worker.ts", [], env);
    for (let i = 0; i < 400 && (await batchProgress(batchId))!.done < 3; i++) await sleep(50);
    expect((await batchProgress(batchId))!.done).toBeGreaterThanOrEqual(3);
    const exited = new Promise<number | null>((r) => worker.once("exit", (code) => r(code)));
    worker.kill("SIGTERM");
    expect(await exited).toBe(0);
    const [taken] = await db.client.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM ${QUEUE_SCHEMA}.job WHERE state = 'active'`,
    );
    expect(taken!.n).toBe(0);
    expect(await db.client.agentRun.count({ where: { batchId, status: "running" } })).toBe(0);

    const second = spawnTs("scripts/worker.ts", [], env);
    try {
      for (let i = 0; i < 600 && !(await batchProgress(batchId))!.finished; i++) await sleep(50);
      expect(await batchProgress(batchId)).toMatchObject({ total: 30, done: 30, finished: true });
    } finally {
      second.kill("SIGTERM");
    }
  }, 90_000);
});
