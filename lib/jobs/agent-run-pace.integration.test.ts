// Agent runs of a batch at the model's pace: as many at once as the concurrency setting allows
// (counted at the fake model), a 429 with Retry-After waited out by every run without failing one, and
// the requests-a-minute limit held by two worker processes together (PostgreSQL).
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { useTestDb } from "../../testing/db";
import { killHard, spawnTs } from "../../testing/spawn-ts";
import { freshOrder, tabletTicket, user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { batchProgress, startBatch } from "../agent/batches";
import { startFakeOpenAI, type TFakeOpenAI } from "../llm/fake-openai-server";
import { updatePolicySettings } from "../policy/update-settings";
import { startWorker } from "./worker";

const testDb = useTestDb(seedDemo);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let fake: TFakeOpenAI;

/** The settings as a worker reads them from now on (read once per process; this reads them again). */
function settings(values: Record<string, string>) {
  for (const [name, value] of Object.entries(values)) vi.stubEnv(name, value);
  delete (globalThis as { __countersignEnv?: unknown }).__countersignEnv;
}

beforeAll(async () => {
  const { client } = testDb();
  fake = await startFakeOpenAI([], { delayMs: 150 });
  settings({ LLM_BASE_URL: fake.url, LLM_MODEL: "fake-model" });
  await updatePolicySettings({
    changes: { "agent.defaultPlanner": "model" },
    actor: await user(client, "ADMIN"),
    modelPlanner: { available: true },
  });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  delete (globalThis as { __countersignEnv?: unknown }).__countersignEnv;
  await fake?.close();
});

async function bulkBatch(tickets: number): Promise<string> {
  const { client } = testDb();
  const ids: string[] = [];
  for (let i = 0; i < tickets; i++) ids.push(await tabletTicket(client, await freshOrder(client)));
  const { batchId } = await startBatch({ ticketIds: ids, work: { kind: "bulk", mode: "simulate" }, actor: await user(client, "REVIEWER") });
  return batchId;
}

async function finished(batchId: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const progress = (await batchProgress(batchId))!;
    if (progress.finished || Date.now() > deadline) return progress;
    await sleep(100);
  }
}

async function inProcessWorker(parallelJobs: number) {
  const db = testDb();
  return startWorker({ client: db.client, pglite: db.pglite, url: db.url, schedule: false, parallelJobs, log: () => {} });
}

describe("agent runs of a batch", () => {
  it("run as many at once as the concurrency setting allows, and no more (counted at the model)", async () => {
    fake.requests.length = 0;
    const batchId = await bulkBatch(12);
    const worker = await inProcessWorker(5);
    try {
      const progress = await finished(batchId, 60_000);
      expect(progress).toMatchObject({ total: 12, done: 12, failed: 0, finished: true });
    } finally {
      await worker.stop(5_000);
    }
    // Every slot was busy at once at some point, and never one more.
    expect(fake.maxInFlight()).toBe(5);
    expect(fake.requests.length).toBeGreaterThanOrEqual(12 * 3);
  }, 90_000);

  it("wait out a 429's Retry-After, every run, and none fails for it: the batch is slower, its wait shown", async () => {
    fake.requests.length = 0;
    fake.push({ status: 429, headers: { "retry-after": "2" } });
    const batchId = await bulkBatch(4);
    const worker = await inProcessWorker(4);
    try {
      const progress = await finished(batchId, 60_000);
      expect(progress).toMatchObject({ total: 4, done: 4, failed: 0, finished: true });
      // Runs side by side each waited for the hold-off to end.
      expect(progress.limiterWaitMs).toBeGreaterThanOrEqual(1_500);
      expect(progress.ticketsPerMinute).toBeGreaterThan(0);
    } finally {
      await worker.stop(5_000);
    }
    const limited = fake.requests.findIndex((r) => r.status === 429);
    expect(limited).toBe(0);
    expect(fake.requests.filter((r) => r.status === 429)).toHaveLength(1);
    // Nothing reached the model in the two seconds it asked for, from any run.
    const answeredAt = fake.requests[0]!.at;
    const next = fake.requests.slice(1).filter((r) => r.at < answeredAt + 1_900);
    expect(next.length).toBeLessThanOrEqual(3); // only the requests already sent beside the one refused
    expect(fake.requests.slice(4).every((r) => r.at >= answeredAt + 1_900)).toBe(true);
    // Every run ended as a run of this ticket ends with a model that never refused (none for the 429).
    const { client } = testDb();
    const runs = await client.agentRun.findMany({ where: { batchId }, select: { status: true, reason: true } });
    const plain = await client.agentRun.findFirst({
      where: { batchId: { not: batchId }, planner: "model", mode: "simulate" },
      select: { status: true, reason: true },
    });
    expect(runs).toHaveLength(4);
    expect(new Set(runs.map((r) => `${r.status} ${r.reason}`))).toEqual(new Set([`${plain!.status} ${plain!.reason}`]));
  }, 90_000);
});

describe.runIf(!!process.env.DATABASE_URL)("two worker processes under a requests-a-minute limit", () => {
  it("together send no more than the limit in its minute, and do send that many", async () => {
    fake.requests.length = 0;
    const limit = 12;
    const batchId = await bulkBatch(10);
    const env = {
      DATABASE_URL: testDb().url!,
      LLM_BASE_URL: fake.url,
      LLM_MODEL: "fake-model",
      LLM_REQUESTS_PER_MINUTE: String(limit),
      AGENT_RUN_CONCURRENCY: "4",
    };
    const workers = [spawnTs("scripts/worker.ts", [], env), spawnTs("scripts/worker.ts", [], env)];
    try {
      for (let i = 0; i < 600 && fake.requests.length < limit; i++) await sleep(50);
      expect(fake.requests.length).toBe(limit);
      // Eight runs are waiting for the window; none may slip through in the next seconds.
      await sleep(4_000);
      expect(fake.requests.length).toBe(limit);
      expect((await batchProgress(batchId))!.failed).toBe(0);
    } finally {
      await Promise.all(workers.map(killHard));
    }
  }, 60_000);
});
