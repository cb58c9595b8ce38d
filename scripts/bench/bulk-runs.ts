// A bulk run of agent runs against the fake model with a delay, worked by `npm run worker`
// processes (the worker's own entry point, PostgreSQL), measured whole: from the batch's start to its
// last item settled. Its figure is a share of the floor the configured concurrency allows:
//   floor = tickets × calls a ticket × delay ÷ (concurrency × processes)
// (every slot busy waiting on the model all the time); 100 % would be no overhead at all.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { startBatch, batchProgress } from "../../lib/agent/batches";
import { useDb as installDb } from "../../lib/db";
import { startFakeOpenAI } from "../../lib/llm/fake-openai-server";
import { updatePolicySettings } from "../../lib/policy/update-settings";
import { freshOrder, tabletTicket, user } from "../../testing/runs";
import type { TBenchDb } from "./bench-db";
import { progress } from "./report";

export interface TBulkRunsBench {
  tickets: number;
  concurrency: number;
  processes: number;
  delayMs: number;
  seconds: number;
  calls: number;
  callsPerTicket: number;
  floorSeconds: number;
  /** floor ÷ measured: the share of the floor reached. */
  share: number;
  ticketsPerMinute: number;
  /** The most model calls in flight at once, counted at the fake. */
  maxInFlight: number;
  failed: number;
  /** The most CPU time a worker process used a ticket, in ms. */
  cpuMsPerTicket: number;
}

/** A worker process as `npm run worker` runs it, once it says it is taking jobs. */
export async function startWorkerProcess(script: string, env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, ...env },
  });
  await new Promise<void>((resolve, reject) => {
    let seen = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes("is taking jobs")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`the worker exited (${code}) before taking jobs`)));
  });
  return child;
}

/** CPU time (user + system) a process has used so far, in ms, from /proc. */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

export async function benchBulkRuns(
  bench: TBenchDb,
  opts: { tickets: number; concurrency: number; processes: number; delayMs: number; workerScript?: string },
): Promise<TBulkRunsBench> {
  if (!bench.url) throw new Error("the bulk-run figure needs PostgreSQL (DATABASE_URL): its workers are processes of their own");
  const fake = await startFakeOpenAI([], { delayMs: opts.delayMs });
  const handle = bench.open();
  installDb(handle);
  const workers: ChildProcess[] = [];
  try {
    const client = handle.client;
    const admin = await user(client, "ADMIN");
    await updatePolicySettings({ changes: { "agent.defaultPlanner": "model" }, actor: admin, modelPlanner: { available: true } });
    progress(`bulk runs: ${opts.tickets} tickets…`);
    const tickets: string[] = [];
    for (let i = 0; i < opts.tickets; i++) tickets.push(await tabletTicket(client, await freshOrder(client)));
    const env = {
      DATABASE_URL: bench.url,
      LLM_BASE_URL: fake.url,
      LLM_MODEL: "fake-model",
      AGENT_RUN_CONCURRENCY: String(opts.concurrency),
    };
    for (let i = 0; i < opts.processes; i++) workers.push(await startWorkerProcess(opts.workerScript ?? "scripts/worker.ts", env));
    const cpuBefore = workers.map((w) => cpuMs(w.pid!));
    const started = performance.now();
    const { batchId } = await startBatch({ ticketIds: tickets, work: { kind: "bulk", mode: "live" }, actor: admin, client });
    let settled = await batchProgress(batchId, client);
    while (!settled?.finished) {
      await new Promise((r) => setTimeout(r, 100));
      settled = await batchProgress(batchId, client);
    }
    const seconds = (performance.now() - started) / 1000;
    const cpu = Math.max(...workers.map((w, i) => cpuMs(w.pid!) - cpuBefore[i]!));
    const calls = fake.requests.length;
    const callsPerTicket = calls / opts.tickets;
    const floorSeconds = (opts.tickets * callsPerTicket * opts.delayMs) / 1000 / (opts.concurrency * opts.processes);
    return {
      ...opts,
      seconds,
      calls,
      callsPerTicket,
      floorSeconds,
      share: floorSeconds / seconds,
      ticketsPerMinute: (opts.tickets / seconds) * 60,
      maxInFlight: fake.maxInFlight(),
      failed: settled.failed,
      cpuMsPerTicket: (cpu * opts.processes) / opts.tickets,
    };
  } finally {
    await Promise.all(
      workers.map(
        (w) =>
          new Promise((resolve) => {
            if (w.exitCode !== null) return resolve(null);
            w.once("exit", resolve);
            w.kill("SIGTERM");
          }),
      ),
    );
    await handle.close();
    await fake.close();
  }
}

export function describeBulkRuns(b: TBulkRunsBench): string {
  return (
    `${b.tickets} tickets, ${b.processes} worker process(es) × ${b.concurrency} at once, model ${b.delayMs} ms a call: ` +
    `${b.seconds.toFixed(1)} s (${b.ticketsPerMinute.toFixed(1)} tickets/min), ${b.callsPerTicket.toFixed(2)} calls a ticket, ` +
    `floor ${b.floorSeconds.toFixed(1)} s → ${(b.share * 100).toFixed(0)} % of it; at most ${b.maxInFlight} calls in flight; ` +
    `${b.failed} failed; ${b.cpuMsPerTicket.toFixed(0)} ms CPU a ticket`
  );
}
