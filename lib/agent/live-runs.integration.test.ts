// A run a person asks for is a job: the request that asked for it may give up at once and the run
// goes on in the worker, its steps written one by one while it works, so a page sees the first before
// the run ends; a worker killed in the middle leaves the run to the sweep, which interrupts it and
// returns its ticket to a person, the steps it took kept (PostgreSQL: the worker is a process).
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { useTestDb } from "../../testing/db";
import { killHard, spawnTs } from "../../testing/spawn-ts";
import { startTestWorker } from "../../testing/queue";
import { freshOrder, tabletTicket, user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { startFakeOpenAI, type TFakeOpenAI } from "../llm/fake-openai-server";
import { awaitLiveRunStart, liveRunProgress, startLiveRun, type TLiveRunProgress } from "./live-runs";
import { interruptExpiredRuns } from "./sweep-runs";

const testDb = useTestDb(seedDemo);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The model answers each call in this long: a run of four or five calls takes a second or more. */
const MODEL_MS = 250;
let fake: TFakeOpenAI;

/** The settings as a worker reads them from now on (read once per process; this reads them again). */
function settings(values: Record<string, string>) {
  for (const [name, value] of Object.entries(values)) vi.stubEnv(name, value);
  delete (globalThis as { __countersignEnv?: unknown }).__countersignEnv;
}

beforeAll(async () => {
  fake = await startFakeOpenAI([], { delayMs: MODEL_MS });
  settings({ LLM_BASE_URL: fake.url, LLM_MODEL: "fake-model", RUN_LEASE_SECONDS: "1" });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  delete (globalThis as { __countersignEnv?: unknown }).__countersignEnv;
  await fake?.close();
});

async function askForRun(planner: "model" | "rule" = "model") {
  const { client } = testDb();
  const ticketId = await tabletTicket(client, await freshOrder(client));
  const ticket = await client.ticket.findUniqueOrThrow({ where: { id: ticketId } });
  const reviewer = await user(client, "REVIEWER");
  const { runId } = await startLiveRun({ ticket, mode: "live", planner, startedBy: reviewer.id });
  return { ticketId, runId };
}

/** Polls the run as the page does, keeping every answer, until it ends. */
async function followRun(runId: string, timeoutMs: number): Promise<TLiveRunProgress[]> {
  const seen: TLiveRunProgress[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const progress = (await liveRunProgress(runId))!;
    seen.push(progress);
    if (progress.state === "ended" || progress.state === "refused" || Date.now() > deadline) return seen;
    await sleep(40);
  }
}

describe("live runs", () => {
  it("go on after the request that asked for them gave up, their steps written one by one while they work", async () => {
    const db = testDb();
    const { ticketId, runId } = await askForRun();
    // The request gives up at once, before any worker took the run.
    const request = new AbortController();
    request.abort();
    expect((await awaitLiveRunStart(runId, 5_000, { signal: request.signal }))?.state).toBe("queued");

    const worker = await startTestWorker(db);
    let seen: TLiveRunProgress[];
    try {
      seen = await followRun(runId, 30_000);
    } finally {
      await worker.stop(5_000);
    }
    const last = seen.at(-1)!;
    // It ended as a run ends – a proposal to approve or, on a slow machine, a budget's hand-off – not
    // interrupted: nothing of it waited on the request.
    expect(last).toMatchObject({ state: "ended", ticketId });
    expect(["awaiting_approval", "needs_human"]).toContain(last.status);
    expect(last.steps.length).toBeGreaterThanOrEqual(3);
    // While it ran, the page saw some steps and not yet all: they came one by one.
    const whileRunning = seen.filter((p) => p.state === "running").map((p) => p.steps.length);
    expect(whileRunning.some((n) => n > 0 && n < last.steps.length)).toBe(true);
    // What it used grew with its steps (the budget bars move).
    const tokens = seen.filter((p) => p.state === "running").map((p) => p.used.tokens);
    expect(tokens).toEqual([...tokens].sort((a, b) => a - b));
    // Every step the page saw while it ran is the step the ended run keeps, unchanged.
    for (const p of seen) for (const step of p.steps) expect(last.steps[step.step - 1]).toEqual(step);
    expect(await db.client.ticket.findUniqueOrThrow({ where: { id: ticketId } })).toMatchObject({ status: last.status });
  }, 60_000);

  it("refuse at once a live run on a ticket another run holds, and refuse at its start one that lost the race", async () => {
    const db = testDb();
    const { ticketId, runId } = await askForRun();
    const ticket = await db.client.ticket.findUniqueOrThrow({ where: { id: ticketId } });
    // A second run asked for before a worker took the first: both are queued.
    const second = await startLiveRun({ ticket, mode: "live", planner: "model", startedBy: null });
    const worker = await startTestWorker(db);
    try {
      const [a, b] = await Promise.all([followRun(runId, 30_000), followRun(second.runId, 30_000)]);
      const outcomes = [a.at(-1)!, b.at(-1)!].map((p) => p.state).sort();
      expect(outcomes).toEqual(["ended", "refused"]);
      const refused = [a.at(-1)!, b.at(-1)!].find((p) => p.state === "refused")!;
      expect(refused.message).toMatch(/^\[ticket_busy\] /);
    } finally {
      await worker.stop(5_000);
    }
    // Now the ticket awaits approval: a live run is still possible (a new run supersedes), but a
    // resolved ticket refuses before anything is enqueued.
    await db.client.ticket.update({ where: { id: ticketId }, data: { status: "resolved" } });
    const resolved = await db.client.ticket.findUniqueOrThrow({ where: { id: ticketId } });
    await expect(startLiveRun({ ticket: resolved, mode: "live", planner: "rule", startedBy: null })).rejects.toMatchObject({
      code: "ticket_resolved",
    });
  }, 60_000);

  it.runIf(!!process.env.DATABASE_URL)(
    "left by a killed worker are interrupted by the sweep, their ticket a person's again, the steps they took kept",
    async () => {
      const db = testDb();
      const { ticketId, runId } = await askForRun();
      // Its first call answers; its second hangs for a while, the run in the middle when the kill comes.
      fake.push("auto", { delayMs: 10_000 });
      const env = { DATABASE_URL: db.url!, WORKER: "on", LLM_BASE_URL: fake.url, LLM_MODEL: "fake-model", RUN_LEASE_SECONDS: "1" };
      const worker = spawnTs("scripts/worker.ts", [], env);
      try {
        for (let i = 0; i < 600 && !(await liveRunProgress(runId))?.steps.length; i++) await sleep(50);
        expect((await liveRunProgress(runId))!.state).toBe("running");
      } finally {
        await killHard(worker);
        fake.reset();
      }
      const kept = (await liveRunProgress(runId))!.steps;
      expect(kept.length).toBeGreaterThan(0);
      await sleep(1_500);
      expect((await interruptExpiredRuns()).interrupted).toEqual([runId]);
      expect(await liveRunProgress(runId)).toMatchObject({ state: "ended", status: "interrupted", reason: "run_interrupted" });
      expect((await liveRunProgress(runId))!.steps).toEqual(kept);
      expect(await db.client.ticket.findUniqueOrThrow({ where: { id: ticketId } })).toMatchObject({
        status: "needs_human",
        reason: "run_interrupted",
      });
    },
    60_000,
  );
});
