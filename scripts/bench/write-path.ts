// The write path at 16 callers, each figure beside its pgbench reference measured in the same run on
// the same bench database (PostgreSQL only: pgbench and concurrency need a server):
//   1a. executeApprovedRefund, 16 concurrent callers in this process   vs  pgbench single-row INSERTs
//   1b. the same                                                       vs  pgbench running the executor's
//                                                                          own statements (pgbench.ts)
//   2.  decideApproval (approve), 16 concurrent callers                vs  pgbench single-row INSERTs
// Approvals come from approval-pool.ts; set-up, pools and calibration runs are not timed. Each timed
// run starts after a CHECKPOINT, so none pays for another's dirty pages.
import { decideApproval } from "../../lib/approvals/decide-approval";
import { executeApprovedRefund, type TExecutionResult } from "../../lib/ledger/execute-approved-refund";
import { closeDb, useDb as installDb } from "../../lib/db";
import { clonePool, ID_PREFIX, kOf, makeTemplates, POOL_RANGES, poolIds } from "./approval-pool";
import type { TBenchDb } from "./bench-db";
import { cloneCounter, executorScript, insertScript, runPgbench, SCRATCH_TABLE_SQL, type TKnownValue } from "./pgbench";
import { openRecordingDb, type TRecordingHandle } from "./recording-db";
import { fmt, progress, type Report } from "./report";

export const CALLERS = 16;
const K = ":bench_k";
const REFUND_ACTOR = { type: "system" as const, id: "bench" };

interface TCallersResult {
  done: number;
  failed: number;
  seconds: number;
  statements: number;
  /** This process's CPU time per call (user + system), in ms: how much of the call is spent here. */
  cpuMs: number;
  /** The pool ran out before the time did. */
  exhausted: boolean;
  firstError?: unknown;
}

/** `callers` concurrent loops, each taking the next item until `seconds` have passed; counts what succeeded. */
async function callers<T>(db: TRecordingHandle, items: T[], seconds: number, call: (item: T) => Promise<boolean>): Promise<TCallersResult> {
  let next = 0;
  let done = 0;
  let failed = 0;
  let firstError: unknown;
  const statementsBefore = db.statements.count;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: CALLERS }, async () => {
      while (performance.now() < until && next < items.length) {
        const item = items[next++]!;
        try {
          if (await call(item)) done++;
          else failed++;
        } catch (error) {
          failed++;
          firstError ??= error;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const calls = Math.max(1, done + failed);
  return { done, failed, seconds: elapsed, statements: (db.statements.count - statementsBefore) / calls, cpuMs: (cpu.user + cpu.system) / 1000 / calls, exhausted: next >= items.length && elapsed < seconds, firstError };
}

/** How a recorded execution's clone appears in its statements, and how pgbench names clone k instead. */
function knownValues(k: string, digest: string, result: TExecutionResult): TKnownValue[] {
  const ids = poolIds(k);
  // Derived values keep their length and all but their last 12 characters, which become k: unique per
  // clone, and the same size in every index they enter.
  const derived = (value: string) => ({ value, render: `${value.slice(0, -12)}${K}` });
  const known: TKnownValue[] = [
    { value: ids.approval, render: ID_PREFIX.approval + K },
    { value: ids.ticket, render: ID_PREFIX.ticket + K },
    { value: ids.proposal, render: ID_PREFIX.proposal + K },
    { value: ids.decision, render: ID_PREFIX.decision + K },
    { value: ids.order, render: ID_PREFIX.order + K },
    derived(digest),
  ];
  if (result.idempotencyKey) known.push(derived(result.idempotencyKey));
  return known;
}

async function checkpoint(db: TRecordingHandle): Promise<void> {
  await db.client.$executeRawUnsafe("CHECKPOINT");
}

/** A pool big enough for `seconds` at the calibrated rate, with room to spare: a warm run is faster
 * than its calibration (pgbench most of all), and a pgbench client that runs out of clones aborts. */
const poolSize = (perSecond: number, seconds: number, margin: number) => Math.ceil(perSecond * seconds * margin) + 2 * CALLERS;

/** `bench` is a PostgreSQL bench database, or null on the embedded database (the figures are skipped). */
export async function benchWritePath(bench: TBenchDb | null, report: Report, opts: { seconds: number; printScript?: boolean }): Promise<void> {
  const seconds = opts.seconds;
  if (!bench || bench.kind !== "postgres" || !bench.url) {
    const why = "needs PostgreSQL (set DATABASE_URL): pgbench and 16 concurrent callers";
    for (const m of ["executor, 16 callers vs pgbench INSERT", "executor, 16 callers vs pgbench executor script", "decideApproval, 16 callers vs pgbench INSERT"]) report.skipped(m, why);
    return;
  }
  const url = bench.url;
  const setup = bench.open(4);
  installDb(setup);
  const db = openRecordingDb(url, CALLERS);
  try {
    progress("write path: the agent on two cracked-tablet tickets, a reviewer approves one (the templates)…");
    const templates = await makeTemplates(setup.client);
    await setup.client.$executeRawUnsafe(SCRATCH_TABLE_SQL("bench_insert"));

    // ── the executor: two recorded calls, the pgbench script from them, calibration, the timed run
    const first = (await clonePool(setup.client, templates.approved, "executor", 0, 3 + 2000)).map((a) => a.id);
    const used = 3;
    // The first call in the process may load what later calls reuse: record the second and third.
    await executeApprovedRefund({ approvalId: first[0]!, actor: REFUND_ACTOR, client: db.client });
    const recorded = [];
    for (let i = 1; i < 3; i++) {
      const k = kOf("executor", i);
      const digest = (await setup.client.approvalRequest.findUniqueOrThrow({ where: { id: first[i]! }, select: { digest: true } })).digest;
      const call = await db.record(() => executeApprovedRefund({ approvalId: first[i]!, actor: REFUND_ACTOR, client: db.client }));
      if (call.result.outcome !== "refund_created") throw new Error(`the executor answered ${call.result.outcome} (${call.result.detail}) on a cloned approval`);
      recorded.push({ statements: call.statements, known: knownValues(k, digest, call.result) });
    }
    const script = executorScript(recorded[0]!, recorded[1]!);
    progress(`executor: ${script.statements} statements per refund${script.protocol === "prepared" ? ", prepared" : ""}; the pgbench script replays them with -M ${script.protocol} (${script.fresh.uuids} fresh uuid(s), ${script.fresh.hashes} fresh digest(s) per transaction)`);
    if (opts.printScript) console.log(`\n-- the executor's statements as a pgbench script (pgbench -M ${script.protocol})\n${cloneCounter(POOL_RANGES.pgbenchExecutor * 100_000_000_000, CALLERS).preamble}${script.script}`);

    const refund = async (id: string) => (await executeApprovedRefund({ approvalId: id, actor: REFUND_ACTOR, client: db.client })).outcome === "refund_created";
    const calibration = await callers(db, first.slice(used), 1, refund);
    if (calibration.failed) throw new Error(`calibration: ${calibration.failed} executions failed: ${describe(calibration.firstError)}`);
    const execCount = poolSize(calibration.done / calibration.seconds, seconds, 2.5);
    progress(`executor: calibrated at ${fmt(calibration.done / calibration.seconds)} refunds/s; cloning ${execCount.toLocaleString("en-US")} approved approvals…`);
    const execIds = (await clonePool(setup.client, templates.approved, "executor", used + 2000, execCount)).map((a) => a.id);
    await checkpoint(db);
    progress(`executor: ${CALLERS} callers for ${seconds} s…`);
    const exec = await callers(db, execIds, seconds, refund);
    if (exec.failed) throw new Error(`${exec.failed} executions did not create their refund: ${describe(exec.firstError)}`);
    const execRate = exec.done / exec.seconds;
    progress(`executor: ${exec.done.toLocaleString("en-US")} refunds in ${exec.seconds.toFixed(1)} s, ${fmt(exec.statements)} statements each${exec.exhausted ? " (the pool ran out early: the rate is over the time it lasted)" : ""}`);

    // ── pgbench: single-row INSERTs
    await checkpoint(db);
    progress(`pgbench: single-row INSERTs, ${CALLERS} clients, ${seconds} s…`);
    const inserts = await runPgbench(url, insertScript("bench_insert"), { clients: CALLERS, seconds });
    if (inserts.aborted || inserts.failed) throw new Error(`pgbench INSERT run failed: ${inserts.output.trim().split("\n").slice(-3).join(" / ")}`);

    // ── pgbench: the executor's statements
    const base = POOL_RANGES.pgbenchExecutor * 100_000_000_000;
    const perClient = 200;
    await clonePool(setup.client, templates.approved, "pgbenchExecutor", 0, CALLERS * perClient);
    const calibrate = cloneCounter(base, CALLERS);
    const cal = await runPgbench(url, calibrate.preamble + script.script, { clients: CALLERS, transactions: perClient, defines: calibrate.defines, protocol: script.protocol });
    if (cal.aborted || cal.failed) throw new Error(`pgbench could not run the executor's statements: ${pgbenchError(cal.output)}`);
    const pgCount = poolSize(cal.tps, seconds, 2.5);
    progress(`pgbench: the executor's statements calibrated at ${fmt(cal.tps)} tps; cloning ${pgCount.toLocaleString("en-US")} approved approvals…`);
    await clonePool(setup.client, templates.approved, "pgbenchExecutor", CALLERS * perClient, pgCount);
    await checkpoint(db);
    progress(`pgbench: the executor's ${script.statements} statements, ${CALLERS} clients, ${seconds} s…`);
    const timed = cloneCounter(base + CALLERS * perClient, CALLERS);
    const replay = await runPgbench(url, timed.preamble + script.script, { clients: CALLERS, seconds, defines: timed.defines, protocol: script.protocol });
    if (replay.aborted || replay.failed) {
      const ranOut = replay.transactions >= pgCount - CALLERS || /foreign key|null value/.test(replay.output);
      throw new Error(`pgbench executor script failed${ranOut ? " (its pool of approvals ran out: the replay ran far faster than calibrated)" : ""}: ${pgbenchError(replay.output)}`);
    }

    report.share({ measure: `executor, ${CALLERS} callers`, value: execRate, unit: "refunds/s", baseline: inserts.tps, baselineLabel: `pgbench 1-row INSERT ×${CALLERS}`, baselineUnit: "tx/s", atLeastPercent: 10 });
    report.share({ measure: `executor, ${CALLERS} callers`, value: execRate, unit: "refunds/s", baseline: replay.tps, baselineLabel: `pgbench executor's ${script.statements} stmts (-M ${script.protocol}) ×${CALLERS}`, baselineUnit: "tx/s", atLeastPercent: 50 });

    // ── decideApproval: a reviewer approves pending refund requests
    const approve = async (a: { id: string; digest: string }) => (await decideApproval({ approvalId: a.id, decision: "approve", digest: a.digest, actor: templates.reviewer, client: db.client })).decision === "approve";
    const decideFirst = await clonePool(setup.client, templates.pending, "decide", 0, 2000);
    const decideCal = await callers(db, decideFirst, 1, approve);
    if (decideCal.failed) throw new Error(`calibration: ${decideCal.failed} decisions failed: ${describe(decideCal.firstError)}`);
    const decideCount = poolSize(decideCal.done / decideCal.seconds, seconds, 2.5);
    progress(`decideApproval: calibrated at ${fmt(decideCal.done / decideCal.seconds)} decisions/s; cloning ${decideCount.toLocaleString("en-US")} pending approvals…`);
    const decidePool = await clonePool(setup.client, templates.pending, "decide", 2000, decideCount);
    await checkpoint(db);
    progress(`decideApproval: ${CALLERS} callers for ${seconds} s…`);
    const decide = await callers(db, decidePool, seconds, approve);
    if (decide.failed) throw new Error(`${decide.failed} decisions failed: ${describe(decide.firstError)}`);
    progress(`decideApproval: ${decide.done.toLocaleString("en-US")} approvals in ${decide.seconds.toFixed(1)} s, ${fmt(decide.statements)} statements each${decide.exhausted ? " (the pool ran out early: the rate is over the time it lasted)" : ""}`);
    report.share({ measure: `decideApproval (approve), ${CALLERS} callers`, value: decide.done / decide.seconds, unit: "decisions/s", baseline: inserts.tps, baselineLabel: `pgbench 1-row INSERT ×${CALLERS}`, baselineUnit: "tx/s", atLeastPercent: 5 });
    // CPU per call × calls per second: how much of a core the callers' process used. Well under one
    // means the calls wait (on locks, or on round trips while holding one) rather than compute.
    const cores = (r: TCallersResult) => `${((r.cpuMs * r.done) / 1000 / r.seconds).toFixed(2)} of a core`;
    report.note(`executor: ${fmt(exec.statements)} statements (round trips) and ${fmt(exec.cpuMs)} ms of this process's CPU per refund (${cores(exec)})`);
    report.note(`decideApproval: ${fmt(decide.statements)} statements and ${fmt(decide.cpuMs)} ms of CPU per approval (${cores(decide)})`);
  } finally {
    await db.close();
    await closeDb(); // the setup handle, installed above
  }
}

function pgbenchError(output: string): string {
  const lines = output.trim().split("\n");
  return (lines.find((l) => /ERROR|error|aborted/.test(l)) ?? lines.at(-1) ?? "").trim();
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message.split("\n")[0]! : String(error);
}
