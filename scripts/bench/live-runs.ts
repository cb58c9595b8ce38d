// Live runs ("Run agent") as the page sees them: from the click – the run's job enqueued, as the
// action does – to its first step written, which the page's next poll shows (it polls every
// LIVE_RUN_POLL_MS). Worked by an `npm run worker` process (PostgreSQL) against the fake model with a
// delay, one run after another, with the worker's RSS read while it works.
import { readFileSync } from "node:fs";
import type { ChildProcess } from "node:child_process";
import { liveRunProgress, startLiveRun } from "../../lib/agent/live-runs";
import { useDb as installDb } from "../../lib/db";
import { startFakeOpenAI } from "../../lib/llm/fake-openai-server";
import { freshOrder, tabletTicket, user } from "../../testing/runs";
import type { TBenchDb } from "./bench-db";
import { startWorkerProcess } from "./bulk-runs";
import { progress } from "./report";

export interface TLiveRunsBench {
  runs: number;
  delayMs: number;
  /** From the click to the first step written, each run's, in ms. */
  firstStepMs: number[];
  /** From the click to the run's end, each run's, in ms. */
  endMs: number[];
  /** The worker process's largest RSS seen while it worked, in MB. */
  workerRssMb: number;
}

/** A process's resident set, in MB, from /proc. */
function rssMb(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB/m);
    return line ? Number(line[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function benchLiveRuns(bench: TBenchDb, opts: { runs: number; delayMs: number }): Promise<TLiveRunsBench> {
  if (!bench.url) throw new Error("the live-run figure needs PostgreSQL (DATABASE_URL): its worker is a process of its own");
  const fake = await startFakeOpenAI([], { delayMs: opts.delayMs });
  const handle = bench.open();
  installDb(handle);
  let worker: ChildProcess | null = null;
  try {
    const client = handle.client;
    const reviewer = await user(client, "REVIEWER");
    worker = await startWorkerProcess("scripts/worker.ts", { DATABASE_URL: bench.url, LLM_BASE_URL: fake.url, LLM_MODEL: "fake-model" });
    const measured: TLiveRunsBench = { ...opts, firstStepMs: [], endMs: [], workerRssMb: 0 };
    for (let i = 0; i < opts.runs; i++) {
      progress(`live runs: ${i + 1} of ${opts.runs}…`);
      const ticket = await client.ticket.findUniqueOrThrow({ where: { id: await tabletTicket(client, await freshOrder(client)) } });
      const clicked = performance.now();
      const { runId } = await startLiveRun({ ticket, mode: "live", planner: "model", startedBy: reviewer.id, client });
      for (;;) {
        const run = await liveRunProgress(runId, client);
        measured.workerRssMb = Math.max(measured.workerRssMb, rssMb(worker.pid!));
        if (run?.steps.length && measured.firstStepMs.length === i) measured.firstStepMs.push(performance.now() - clicked);
        if (run?.state === "ended" || run?.state === "refused") break;
        await sleep(20);
      }
      measured.endMs.push(performance.now() - clicked);
    }
    return measured;
  } finally {
    const w = worker;
    if (w && w.exitCode === null) await new Promise((resolve) => (w.once("exit", resolve), w.kill("SIGTERM")));
    await handle.close();
    await fake.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

export function describeLiveRuns(b: TLiveRunsBench): string {
  return (
    `${b.runs} runs one after another, model ${b.delayMs} ms a call: first step ${median(b.firstStepMs).toFixed(0)} ms after the click ` +
    `(median; most ${Math.max(...b.firstStepMs).toFixed(0)} ms), run ended after ${median(b.endMs).toFixed(0)} ms; ` +
    `worker RSS at most ${b.workerRssMb.toFixed(0)} MB`
  );
}

export { median };
