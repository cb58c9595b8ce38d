// npm run bench: the app's figures, each beside a baseline measured in the same run, with the target it
// is held to. Parts (all by default; `--only a,b` or `--skip-<part>` to choose):
//
//   pages  the queue's and a ticket page's queries on the configured database seeded with
//          `npm run db:seed -- --scale` (read only; p95 budget 300 ms)         scripts/bench/pages.ts
//   eval   grading 1,000 rule-planner episodes on grading threads, each with its own in-memory
//          database (--workers, default the CPU count; ≥ 100 episodes/s)    scripts/bench-eval.ts
//   http   on the production build (npm run build first): intake vs /api/health at 32 connections;
//          runAgent at one caller and the /evals page vs /api/health at one connection, on the demo
//          data and again with the 100k-ticket scale set (--skip-scale); /api/queue at rest and under
//          floods of bogus sign-ins and set-password submissions           scripts/bench/http.ts
//   write  PostgreSQL only: the refund executor and decideApproval at 16 callers vs pgbench, single-row
//          INSERTs and the executor's own statements replayed               scripts/bench/write-path.ts
//   audit  /audit's server work and audit:verify's full check at 1M events  scripts/bench/audit-scale.ts
//   bulk   PostgreSQL only: a bulk run of --bulk-tickets (100) against the fake model answering in
//          --model-delay ms (800), by --bulk-processes (1, and 2) `npm run worker`s of
//          --bulk-concurrency (16) runs at once, as a share of the floor that concurrency allows
//          (≥ 75 %); one and two processes on a number of tickets that fills every wave of both
//          (two at least 1.9 times as fast as one); then --bulk-large-tickets (1,000) by one worker
//          of --bulk-large-concurrency (32) (within 1.5 times its floor)    scripts/bench/bulk-runs.ts
//   live   PostgreSQL only: live runs ("Run agent") one after another, worked by an `npm run worker`
//          against the fake model answering in --model-delay ms: from the click to the first step
//          written (≤ 1.5 s at 800 ms a call), and the worker's RSS while it works scripts/bench/live-runs.ts
//   procs  every process `npm start` leaves running (embedded database, idle; the launcher gone;
//          ≤ 600 MB in all) and `npm run worker` (PostgreSQL: one node process beside npm), each
//          stopped by SIGTERM to npm with nothing left                      scripts/bench/processes.ts
//
// http and audit run on a database of their own (<name>_bench beside DATABASE_URL, or a temporary
// embedded one), write on another (<name>_bench_write), each migrated and seeded with the demo data
// and dropped at the end: the configured database is only read. A MISS is reported, not failed: the command exits 1 only when a
// figure could not be taken (or an episode failed), 2 on bad arguments.
//
//   npm run bench
//   npm run bench -- --only write --seconds 5
//   npm run bench -- --skip-pages --skip-eval --skip-scale
//   npm run bench -- --only write --print-script     # show the pgbench script derived from the executor
import "./bench/secrets";
import { cpus } from "node:os";
import { parseArgs } from "node:util";
import { benchEval, describeBenchEval, EVAL_PEAK_TARGET_MB, evalPeakMemory, GRADING_TARGET_PER_SECOND } from "./bench-eval";
import { runScript } from "./run-script";
import { closeDb, dbHandle, useDb as installDb } from "../lib/db";
import { env } from "../lib/env";
import { benchAuditAtScale } from "./bench/audit-scale";
import { benchBulkRuns, describeBulkRuns, type TBulkRunsBench } from "./bench/bulk-runs";
import { benchLiveRuns, describeLiveRuns, median } from "./bench/live-runs";
import { describeTree, measureStart, measureWorker, type TTreeFigure } from "./bench/processes";
import { createBenchDb, type TBenchDb } from "./bench/bench-db";
import { benchHttpDemo, benchHttpScale } from "./bench/http";
import { benchPages } from "./bench/pages";
import { Report } from "./bench/report";
import { missingBuild } from "./bench/server";
import { benchWritePath } from "./bench/write-path";

const PARTS = ["pages", "eval", "http", "write", "audit", "bulk", "live", "procs"] as const;
type TPart = (typeof PARTS)[number];

interface TOptions {
  parts: Set<TPart>;
  only: boolean;
  skipScale: boolean;
  seconds: number;
  runs: number;
  iterations: number;
  episodes: number;
  workers: number;
  printScript: boolean;
  bulkTickets: number;
  bulkConcurrency: number;
  bulkLargeTickets: number;
  bulkLargeConcurrency: number;
  modelDelay: number;
}

/** The options, or a line saying what is wrong with them. */
function options(): TOptions | string {
  const { values } = parseArgs({
    options: {
      only: { type: "string" },
      "skip-pages": { type: "boolean", default: false },
      "skip-eval": { type: "boolean", default: false },
      "skip-http": { type: "boolean", default: false },
      "skip-write": { type: "boolean", default: false },
      "skip-audit": { type: "boolean", default: false },
      "skip-bulk": { type: "boolean", default: false },
      "skip-live": { type: "boolean", default: false },
      "skip-procs": { type: "boolean", default: false },
      "bulk-tickets": { type: "string", default: "100" },
      "bulk-concurrency": { type: "string", default: "16" },
      "bulk-large-tickets": { type: "string", default: "1000" },
      "bulk-large-concurrency": { type: "string", default: "32" },
      "model-delay": { type: "string", default: "800" },
      "skip-scale": { type: "boolean", default: false },
      seconds: { type: "string", default: "10" },
      runs: { type: "string", default: "30" },
      iterations: { type: "string", default: "30" },
      episodes: { type: "string", default: "1000" },
      workers: { type: "string", default: String(cpus().length) },
      "print-script": { type: "boolean", default: false },
    },
  });
  const only = values.only?.split(",").map((p) => p.trim());
  const unknown = only?.filter((p) => !(PARTS as readonly string[]).includes(p));
  if (unknown?.length) return `--only takes ${PARTS.join(", ")}; not ${unknown.join(", ")}`;
  const numbers = {
    seconds: Number(values.seconds),
    runs: Number(values.runs),
    iterations: Number(values.iterations),
    episodes: Number(values.episodes),
    workers: Number(values.workers),
    bulkTickets: Number(values["bulk-tickets"]),
    bulkConcurrency: Number(values["bulk-concurrency"]),
    bulkLargeTickets: Number(values["bulk-large-tickets"]),
    bulkLargeConcurrency: Number(values["bulk-large-concurrency"]),
    modelDelay: Number(values["model-delay"]),
  };
  for (const [name, n] of Object.entries(numbers)) if (!Number.isInteger(n) || n < 1) return `--${name} must be a positive whole number`;
  return {
    parts: new Set((only as TPart[] | undefined) ?? PARTS.filter((p) => !values[`skip-${p}`])),
    only: only !== undefined,
    skipScale: values["skip-scale"],
    printScript: values["print-script"],
    ...numbers,
  };
}

async function main(): Promise<number> {
  const opts = options();
  if (typeof opts === "string") {
    console.error(opts);
    return 2;
  }
  const { parts, seconds, runs, iterations, episodes, workers } = opts;
  const configured = env().DATABASE_URL;
  const started = new Date();
  console.log(
    `Countersign bench, ${started.toISOString().slice(0, 16).replace("T", " ")} UTC: Node ${process.version}, ${cpus().length} cores, ${configured ? "PostgreSQL (DATABASE_URL)" : "the embedded database (PGlite)"}; parts: ${[...parts].join(", ")}.\n`,
  );
  const report = new Report();

  if (parts.has("pages")) {
    try {
      const measured = await benchPages(report, iterations);
      if (!measured && opts.only) {
        report.print("Summary");
        return 2;
      }
    } catch (error) {
      report.error("page queries", error);
    } finally {
      await closeDb();
    }
    console.log("");
  }

  if (parts.has("eval")) {
    console.log(
      `Grading ${episodes} rule-planner episodes through the real runtime on ${workers} grading thread(s) (this one and ${workers - 1} worker(s)), each with its own in-memory database…`,
    );
    try {
      const graded = await benchEval(episodes, workers);
      console.log(`${describeBenchEval(graded)}\n`);
      if (graded.passed !== graded.episodes)
        report.error(`grading ${episodes} episodes`, new Error(`${graded.episodes - graded.passed} of ${graded.episodes} episodes failed`));
      else
        report.add({
          measure: `grading ${episodes} rule-planner episodes, ${graded.workers} grading thread(s)`,
          value: `${graded.perSecond.toFixed(1)} episodes/s (${graded.seconds.toFixed(1)} s)`,
          baseline: "",
          ratio: "",
          target: `≥ ${GRADING_TARGET_PER_SECOND}/s, every episode passes`,
          verdict: graded.perSecond >= GRADING_TARGET_PER_SECOND ? "PASS" : "MISS",
        });
    } catch (error) {
      report.error(`grading ${episodes} episodes`, error);
    }
    console.log("Running npm run eval (the shipped dataset, storing its receipt) on a database of its own, for its peak memory…");
    try {
      const { peakMb, episodes: passed } = await evalPeakMemory();
      console.log(`npm run eval: ${passed} episodes passed, peak memory ${peakMb} MB.\n`);
      report.add({
        measure: "npm run eval, storing its receipt: peak memory",
        value: `${peakMb} MB`,
        baseline: "",
        ratio: "",
        target: `< ${EVAL_PEAK_TARGET_MB} MB`,
        verdict: peakMb < EVAL_PEAK_TARGET_MB ? "PASS" : "MISS",
      });
    } catch (error) {
      report.error("npm run eval, peak memory", error);
    }
  }

  if (parts.has("http") || parts.has("audit")) {
    console.log(`On a bench database of its own (${["http", "audit"].filter((p) => parts.has(p as TPart)).join(", ")}):`);
    let bench: TBenchDb | null = null;
    try {
      bench = await createBenchDb(configured);
      const build = parts.has("http") ? missingBuild() : null;
      if (parts.has("http")) {
        if (build) report.skipped("intake, runAgent, /evals vs /api/health", build);
        else
          await attempt(report, "intake, runAgent, /evals vs /api/health (demo data)", () =>
            benchHttpDemo(bench!, report, { seconds, runs }),
          );
      }
      if (parts.has("write")) await benchWrite(configured, report, { seconds, printScript: opts.printScript });
      if (parts.has("http") && !build) {
        if (opts.skipScale)
          report.skipped(
            "runAgent and /evals at 100k tickets",
            "--skip-scale (without it, the bench adds the scale set to its own database: about a minute)",
          );
        else
          await attempt(report, "runAgent, /evals at 100k tickets", () =>
            benchHttpScale(bench!, report, { seconds, runs }, () => createBenchDb(configured, "bench_demo")),
          );
      }
      if (parts.has("audit")) {
        // Installed as the process-wide handle (the audit's page functions read through db()), and
        // closed through it, once.
        installDb(bench.open());
        try {
          await attempt(report, "/audit and audit:verify at 1M events", () => benchAuditAtScale(dbHandle(), report, { runs }));
        } finally {
          await closeDb();
        }
      }
    } catch (error) {
      report.error("bench database", error);
    } finally {
      await bench?.drop().catch((error) => report.error("dropping the bench database", error));
    }
  } else if (parts.has("write")) {
    await benchWrite(configured, report, { seconds, printScript: opts.printScript });
  }

  if (parts.has("bulk")) await benchBulk(configured, report, opts);
  if (parts.has("live")) await benchLive(configured, report, opts);
  if (parts.has("procs")) await benchProcesses(configured, report);

  report.print(
    `Summary (${started.toISOString().slice(0, 10)}, ${cpus().length} cores, ${configured ? "PostgreSQL" : "embedded PGlite"}; ${((Date.now() - started.getTime()) / 60_000).toFixed(1)} min)`,
  );
  const misses = report.rows.filter((r) => r.verdict === "MISS").length;
  console.log(`\n${misses} target(s) missed${report.errors ? `; ${report.errors} figure(s) could not be taken` : ""}.`);
  return report.errors ? 1 : 0;
}

/**
 * The write path on a database of its own: pgbench's replay of the executor writes audit events whose
 * content hashes are stand-ins (pgbench.ts), which audit:verify rightly refuses, and thousands of
 * refunds today, which the agent's daily-cap check reads. Neither may touch the other figures.
 */
async function benchWrite(configured: string | undefined, report: Report, opts: { seconds: number; printScript: boolean }): Promise<void> {
  if (!configured) {
    await benchWritePath(null, report, opts);
    return;
  }
  let bench: TBenchDb | null = null;
  try {
    bench = await createBenchDb(configured, "bench_write");
    await attempt(report, "write path (executor, decideApproval)", () => benchWritePath(bench!, report, opts));
  } catch (error) {
    report.error("write path's database", error);
  } finally {
    await bench?.drop().catch((error) => report.error("dropping the write path's database", error));
  }
}

/** Target: a bulk run reaches this share of the floor its concurrency allows. */
const BULK_FLOOR_SHARE_TARGET = 0.75;
/** Target: two worker processes finish a bulk run this many times faster than one, or more. */
const BULK_TWO_WORKERS_TARGET = 1.9;
/** Target: the large bulk run takes at most this many times its floor. */
const BULK_LARGE_FLOOR_TARGET = 1.5;

type TBulkLine = {
  tickets: number;
  concurrency: number;
  processes: number;
  judge: (m: TBulkRunsBench, one?: TBulkRunsBench) => { ratio: string; target: string; pass: boolean };
};

/**
 * The bulk runs: --bulk-tickets by one worker against its floor; one worker and two on a number of
 * tickets that fills every wave of both (a multiple of twice the concurrency: with 100 tickets and 32
 * slots the last wave holds 4 tickets and takes as long as a full one, so two workers could not be
 * twice one whatever they did); and the large run by one worker, against its floor.
 */
function bulkLines(opts: TOptions): TBulkLine[] {
  const share = (m: TBulkRunsBench) => `${(m.share * 100).toFixed(0)} % of floor`;
  const even = Math.ceil(opts.bulkTickets / (2 * opts.bulkConcurrency)) * 2 * opts.bulkConcurrency;
  const floorShare: TBulkLine["judge"] = (m) => ({
    ratio: share(m),
    target: `≥ ${BULK_FLOOR_SHARE_TARGET * 100} % of floor, none failed`,
    pass: m.share >= BULK_FLOOR_SHARE_TARGET && m.failed === 0,
  });
  return [
    { tickets: opts.bulkTickets, concurrency: opts.bulkConcurrency, processes: 1, judge: floorShare },
    { tickets: even, concurrency: opts.bulkConcurrency, processes: 1, judge: floorShare },
    {
      tickets: even,
      concurrency: opts.bulkConcurrency,
      processes: 2,
      judge: (m, one) => {
        const times = one?.tickets === m.tickets ? one.seconds / m.seconds : 0;
        return {
          ratio: `${share(m)}; ${times.toFixed(2)}× one worker`,
          target: `≥ ${BULK_TWO_WORKERS_TARGET}× one worker, none failed`,
          pass: times >= BULK_TWO_WORKERS_TARGET && m.failed === 0,
        };
      },
    },
    {
      tickets: opts.bulkLargeTickets,
      concurrency: opts.bulkLargeConcurrency,
      processes: 1,
      judge: (m) => ({
        ratio: `${(m.seconds / m.floorSeconds).toFixed(2)}× floor`,
        target: `≤ ${BULK_LARGE_FLOOR_TARGET}× floor, none failed`,
        pass: m.seconds <= BULK_LARGE_FLOOR_TARGET * m.floorSeconds && m.failed === 0,
      }),
    },
  ];
}

/** Each bulk run on a database of its own (bulkLines), as a line of the report. */
async function benchBulk(configured: string | undefined, report: Report, opts: TOptions): Promise<void> {
  if (!configured) {
    report.skipped("bulk runs", "PostgreSQL only (DATABASE_URL): its workers are processes of their own");
    return;
  }
  let one: TBulkRunsBench | undefined;
  for (const line of bulkLines(opts)) {
    let bench: TBenchDb | null = null;
    try {
      bench = await createBenchDb(configured, "bench_bulk");
      const measured = await benchBulkRuns(bench, {
        tickets: line.tickets,
        concurrency: line.concurrency,
        processes: line.processes,
        delayMs: opts.modelDelay,
      });
      console.log(`Bulk run: ${describeBulkRuns(measured)}`);
      const { ratio, target, pass } = line.judge(measured, one);
      report.add({
        measure: `bulk run of ${measured.tickets} tickets, ${line.processes} worker(s) × ${measured.concurrency}, model ${measured.delayMs} ms a call`,
        value: `${measured.seconds.toFixed(1)} s, ${measured.ticketsPerMinute.toFixed(0)} tickets/min`,
        baseline: `floor ${measured.floorSeconds.toFixed(1)} s`,
        ratio,
        target,
        verdict: pass ? "PASS" : "MISS",
      });
      if (line.processes === 1) one = measured;
    } catch (error) {
      report.error(`bulk run, ${line.tickets} tickets, ${line.processes} worker(s)`, error);
      if (process.env.BENCH_DEBUG) console.error(error);
    } finally {
      await bench?.drop().catch((error) => report.error("dropping the bulk run's database", error));
    }
  }
}

/** Target: a live run's first step is written within this long of the click (with an 800 ms model). */
const FIRST_STEP_TARGET_MS = 1_500;
/** Live runs measured, one after another. */
const LIVE_RUNS = 5;

/** From "Run agent" to the run's first step, and the worker's RSS meanwhile. */
async function benchLive(configured: string | undefined, report: Report, opts: TOptions): Promise<void> {
  if (!configured) {
    report.skipped("live runs", "PostgreSQL only (DATABASE_URL): its worker is a process of its own");
    return;
  }
  let bench: TBenchDb | null = null;
  try {
    bench = await createBenchDb(configured, "bench_live");
    const measured = await benchLiveRuns(bench, { runs: LIVE_RUNS, delayMs: opts.modelDelay });
    console.log(`Live runs: ${describeLiveRuns(measured)}`);
    const first = median(measured.firstStepMs);
    report.add({
      measure: `live run, "Run agent" to its first step written, model ${measured.delayMs} ms a call (median of ${measured.runs})`,
      value: `${first.toFixed(0)} ms`,
      baseline: `run ended after ${median(measured.endMs).toFixed(0)} ms`,
      ratio: `worker RSS ≤ ${measured.workerRssMb.toFixed(0)} MB`,
      target: `≤ ${FIRST_STEP_TARGET_MS} ms`,
      verdict: first <= FIRST_STEP_TARGET_MS ? "PASS" : "MISS",
    });
  } catch (error) {
    report.error("live runs", error);
    if (process.env.BENCH_DEBUG) console.error(error);
  } finally {
    await bench?.drop().catch((error) => report.error("dropping the live runs' database", error));
  }
}

/** Target: what embedded `npm start` leaves running, idle, in all. */
const START_RSS_TARGET_MB = 600;

/** The processes `npm start` and `npm run worker` leave running, and whether SIGTERM to npm stops them all. */
async function benchProcesses(configured: string | undefined, report: Report): Promise<void> {
  const stopped = (f: TTreeFigure) => f.leftAfterStop === 0 && f.exitCode !== null;
  const start = await attempt(report, "npm start: its processes", () => measureStart());
  if (start) {
    console.log(describeTree("npm start (embedded database, idle)", start));
    report.add({
      measure: "npm start (embedded), idle: RSS of every process left running",
      value: `${start.totalMb} MB in ${start.processes.length} process(es)`,
      baseline: start.deadWeight.length
        ? `launcher still there: ${start.deadWeight.map((p) => `${p.rssMb} MB`).join(", ")}`
        : "launcher gone",
      ratio: "",
      target: `≤ ${START_RSS_TARGET_MB} MB, no launcher; SIGTERM stops all`,
      verdict: start.totalMb <= START_RSS_TARGET_MB && !start.deadWeight.length && stopped(start) ? "PASS" : "MISS",
    });
  }
  if (!configured) {
    report.skipped("npm run worker: its processes", "PostgreSQL only (DATABASE_URL)");
    return;
  }
  let bench: TBenchDb | null = null;
  try {
    bench = await createBenchDb(configured, "bench_worker");
    const worker = await attempt(report, "npm run worker: its processes", () => measureWorker(bench!.url!));
    if (worker) {
      console.log(describeTree("npm run worker (idle)", worker));
      const node = worker.processes.filter((p) => !/^npm /.test(p.command));
      report.add({
        measure: "npm run worker, idle: RSS of every process left running",
        value: `${worker.totalMb} MB in ${worker.processes.length} process(es)`,
        baseline: `the worker ${node.map((p) => `${p.rssMb} MB`).join(" + ")}`,
        ratio: "",
        target: "no tsx command beside it; SIGTERM stops all",
        verdict: !worker.deadWeight.length && stopped(worker) ? "PASS" : "MISS",
      });
    }
  } finally {
    await bench?.drop().catch((error) => report.error("dropping the worker's database", error));
  }
}

/** Runs one part; an error becomes a row (the other parts still run). */
async function attempt<T>(report: Report, measure: string, fn: () => Promise<T>): Promise<T | null> {
  try {
    return await fn();
  } catch (error) {
    report.error(measure, error);
    if (process.env.BENCH_DEBUG) console.error(error);
    return null;
  }
}

runScript(main);
