// The write path at 16 callers, each figure beside its pgbench reference measured in the same run on
// the same bench database (PostgreSQL only: pgbench and concurrency need a server):
//   1a. executeApprovedRefund, 16 concurrent callers in this process   vs  pgbench single-row INSERTs
//   1b. the same                                                       vs  pgbench running the executor's
//                                                                          own statements (pgbench.ts)
//   2.  decideApproval (approve), 16 concurrent callers                vs  pgbench single-row INSERTs
// Approvals come from approval-pool.ts; set-up, pools and calibration runs are not timed. Each timed
// run starts after a CHECKPOINT, so none pays for another's dirty pages. The executor and its two
// references take turns three times, each ratio taken within a turn, and the median turn reported.
import { decideApproval } from "../../lib/approvals/decide-approval";
import { executeApprovedRefund, type TExecutionResult } from "../../lib/ledger/execute-approved-refund";
import { closeDb, useDb as installDb } from "../../lib/db";
import { clonePool, ID_PREFIX, kOf, makeTemplates, POOL_RANGES, poolIds } from "./approval-pool";
import type { TBenchDb } from "./bench-db";
import { cloneCounter, executorScript, insertScript, runPgbench, SCRATCH_TABLE_SQL, type TKnownValue } from "./pgbench";
import { openRecordingDb, type TRecordingHandle } from "./recording-db";
import { fmt, percentOf as percent, progress, type Report } from "./report";

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
  return {
    done,
    failed,
    seconds: elapsed,
    statements: (db.statements.count - statementsBefore) / calls,
    cpuMs: (cpu.user + cpu.system) / 1000 / calls,
    exhausted: next >= items.length && elapsed < seconds,
    firstError,
  };
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

/** Times the executor and its two pgbench references take turns (write-path's executor part). */
const ROUNDS = 3;

interface TRound {
  exec: TCallersResult;
  /** Refunds a second in the round. */
  rate: number;
  /** pgbench's single-row INSERTs and its replay of the executor's statements, tx/s, in the round. */
  inserts: number;
  replay: number;
}

/** The item whose key is the median (the lower middle one of an even number). */
function medianBy<T>(items: readonly T[], key: (item: T) => number): T {
  const sorted = [...items].sort((a, b) => key(a) - key(b));
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** A pool big enough for `seconds` at the calibrated rate, with room to spare: a warm run is faster
 * than its calibration (pgbench most of all), and a pgbench client that runs out of clones aborts. */
const poolSize = (perSecond: number, seconds: number, margin: number) => Math.ceil(perSecond * seconds * margin) + 2 * CALLERS;

/** `bench` is a PostgreSQL bench database, or null on the embedded database (the figures are skipped). */
export async function benchWritePath(
  bench: TBenchDb | null,
  report: Report,
  opts: { seconds: number; printScript?: boolean },
): Promise<void> {
  const seconds = opts.seconds;
  if (!bench || bench.kind !== "postgres" || !bench.url) {
    const why = "needs PostgreSQL (set DATABASE_URL): pgbench and 16 concurrent callers";
    for (const m of [
      "executor, 16 callers vs pgbench INSERT",
      "executor, 16 callers vs pgbench executor script",
      "decideApproval, 16 callers vs pgbench INSERT",
    ])
      report.skipped(m, why);
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
      if (call.result.outcome !== "refund_created")
        throw new Error(`the executor answered ${call.result.outcome} (${call.result.detail}) on a cloned approval`);
      recorded.push({ statements: call.statements, known: knownValues(k, digest, call.result) });
    }
    const script = executorScript(recorded[0]!, recorded[1]!);
    progress(
      `executor: ${script.statements} statements per refund${script.protocol === "prepared" ? ", prepared" : ""}; the pgbench script replays them with -M ${script.protocol} (${script.fresh.uuids} fresh uuid(s), ${script.fresh.hashes} fresh digest(s) per transaction)`,
    );
    if (opts.printScript)
      console.log(
        `\n-- the executor's statements as a pgbench script (pgbench -M ${script.protocol})\n${cloneCounter(POOL_RANGES.pgbenchExecutor * 100_000_000_000, CALLERS).preamble}${script.script}`,
      );

    const refund = async (id: string) =>
      (await executeApprovedRefund({ approvalId: id, actor: REFUND_ACTOR, client: db.client })).outcome === "refund_created";
    const calibration = await callers(db, first.slice(used), 1, refund);
    if (calibration.failed) throw new Error(`calibration: ${calibration.failed} executions failed: ${describe(calibration.firstError)}`);
    const base = POOL_RANGES.pgbenchExecutor * 100_000_000_000;
    const perClient = 200;
    await clonePool(setup.client, templates.approved, "pgbenchExecutor", 0, CALLERS * perClient);
    const calibrate = cloneCounter(base, CALLERS);
    const cal = await runPgbench(url, calibrate.preamble + script.script, {
      clients: CALLERS,
      transactions: perClient,
      defines: calibrate.defines,
      protocol: script.protocol,
    });
    if (cal.aborted || cal.failed) throw new Error(`pgbench could not run the executor's statements: ${pgbenchError(cal.output)}`);

    // The executor and its two references take turns, ROUNDS times, and each ratio is taken within a
    // round: the disk's commit rate drifts by half between runs a minute apart, more than the distance
    // from the targets, and a ratio of two figures taken seconds apart is what holds still.
    const rounds: TRound[] = [];
    let execFrom = used + 2000;
    let execRate = calibration.done / calibration.seconds;
    let replayFrom = CALLERS * perClient;
    let replayRate = cal.tps;
    for (let round = 1; round <= ROUNDS; round++) {
      const of = `round ${round} of ${ROUNDS}`;
      // Each pool is sized from the fastest rate seen so far: calibration runs cold and slow.
      const execCount = poolSize(execRate, seconds, 2.5);
      progress(
        `${of}: cloning ${execCount.toLocaleString("en-US")} approved approvals, then the executor at ${CALLERS} callers for ${seconds} s…`,
      );
      const execIds = (await clonePool(setup.client, templates.approved, "executor", execFrom, execCount)).map((a) => a.id);
      execFrom += execCount;
      await checkpoint(db);
      const exec = await callers(db, execIds, seconds, refund);
      if (exec.failed) throw new Error(`${exec.failed} executions did not create their refund: ${describe(exec.firstError)}`);
      execRate = Math.max(execRate, exec.done / exec.seconds);
      progress(
        `${of}: executor ${exec.done.toLocaleString("en-US")} refunds in ${exec.seconds.toFixed(1)} s, ${fmt(exec.statements)} statements each${exec.exhausted ? " (the pool ran out early: the rate is over the time it lasted)" : ""}`,
      );

      await checkpoint(db);
      progress(`${of}: pgbench single-row INSERTs, ${CALLERS} clients, ${seconds} s…`);
      const inserts = await runPgbench(url, insertScript("bench_insert"), { clients: CALLERS, seconds });
      if (inserts.aborted || inserts.failed)
        throw new Error(`pgbench INSERT run failed: ${inserts.output.trim().split("\n").slice(-3).join(" / ")}`);

      const pgCount = poolSize(replayRate, seconds, 2.5);
      progress(
        `${of}: cloning ${pgCount.toLocaleString("en-US")} approved approvals, then pgbench running the executor's ${script.statements} statements, ${CALLERS} clients, ${seconds} s…`,
      );
      await clonePool(setup.client, templates.approved, "pgbenchExecutor", replayFrom, pgCount);
      await checkpoint(db);
      const timed = cloneCounter(base + replayFrom, CALLERS);
      replayFrom += pgCount;
      const replay = await runPgbench(url, timed.preamble + script.script, {
        clients: CALLERS,
        seconds,
        defines: timed.defines,
        protocol: script.protocol,
      });
      if (replay.aborted || replay.failed) {
        const ranOut = replay.transactions >= pgCount - CALLERS || /foreign key|null value/.test(replay.output);
        throw new Error(
          `pgbench executor script failed${ranOut ? " (its pool of approvals ran out: the replay ran far faster than calibrated)" : ""}: ${pgbenchError(replay.output)}`,
        );
      }
      replayRate = Math.max(replayRate, replay.tps);
      const r: TRound = { exec, rate: exec.done / exec.seconds, inserts: inserts.tps, replay: replay.tps };
      rounds.push(r);
      progress(
        `${of}: executor ${fmt(r.rate)} refunds/s = ${percent(r.rate, r.inserts)} of ${fmt(r.inserts)} INSERTs/s, ${percent(r.rate, r.replay)} of its statements' ${fmt(r.replay)} tx/s`,
      );
    }

    // Each target's row is the round with the median ratio for it, so the row's figures are one
    // round's, side by side; the note lists every round.
    const insertsRound = medianBy(rounds, (r) => r.rate / r.inserts);
    const replayRound = medianBy(rounds, (r) => r.rate / r.replay);
    const median = `median of ${ROUNDS} rounds`;
    report.share({
      measure: `executor, ${CALLERS} callers (${median})`,
      value: insertsRound.rate,
      unit: "refunds/s",
      baseline: insertsRound.inserts,
      baselineLabel: `pgbench 1-row INSERT ×${CALLERS}`,
      baselineUnit: "tx/s",
      atLeastPercent: 10,
    });
    report.share({
      measure: `executor, ${CALLERS} callers (${median})`,
      value: replayRound.rate,
      unit: "refunds/s",
      baseline: replayRound.replay,
      baselineLabel: `pgbench executor's ${script.statements} stmts (-M ${script.protocol}) ×${CALLERS}`,
      baselineUnit: "tx/s",
      atLeastPercent: 50,
    });
    report.note(
      `executor by round (of INSERTs; of its own statements): ${rounds.map((r) => `${percent(r.rate, r.inserts)}; ${percent(r.rate, r.replay)}`).join(" | ")}`,
    );
    const exec = { ...insertsRound.exec, statements: rounds.reduce((n, r) => n + r.exec.statements, 0) / rounds.length };
    const inserts = { tps: medianBy(rounds, (r) => r.inserts).inserts };

    // ── decideApproval: a reviewer approves pending refund requests
    const approve = async (a: { id: string; digest: string }) =>
      (await decideApproval({ approvalId: a.id, decision: "approve", digest: a.digest, actor: templates.reviewer, client: db.client }))
        .decision === "approve";
    const decideFirst = await clonePool(setup.client, templates.pending, "decide", 0, 2000);
    const decideCal = await callers(db, decideFirst, 1, approve);
    if (decideCal.failed) throw new Error(`calibration: ${decideCal.failed} decisions failed: ${describe(decideCal.firstError)}`);
    const decideCount = poolSize(decideCal.done / decideCal.seconds, seconds, 2.5);
    progress(
      `decideApproval: calibrated at ${fmt(decideCal.done / decideCal.seconds)} decisions/s; cloning ${decideCount.toLocaleString("en-US")} pending approvals…`,
    );
    const decidePool = await clonePool(setup.client, templates.pending, "decide", 2000, decideCount);
    await checkpoint(db);
    progress(`decideApproval: ${CALLERS} callers for ${seconds} s…`);
    const decide = await callers(db, decidePool, seconds, approve);
    if (decide.failed) throw new Error(`${decide.failed} decisions failed: ${describe(decide.firstError)}`);
    progress(
      `decideApproval: ${decide.done.toLocaleString("en-US")} approvals in ${decide.seconds.toFixed(1)} s, ${fmt(decide.statements)} statements each${decide.exhausted ? " (the pool ran out early: the rate is over the time it lasted)" : ""}`,
    );
    report.share({
      measure: `decideApproval (approve), ${CALLERS} callers`,
      value: decide.done / decide.seconds,
      unit: "decisions/s",
      baseline: inserts.tps,
      baselineLabel: `pgbench 1-row INSERT ×${CALLERS}`,
      baselineUnit: "tx/s",
      atLeastPercent: 5,
    });
    // CPU per call × calls per second: how much of a core the callers' process used. Well under one
    // means the calls wait (on locks, or on round trips while holding one) rather than compute.
    const cores = (r: TCallersResult) => `${((r.cpuMs * r.done) / 1000 / r.seconds).toFixed(2)} of a core`;
    report.note(
      `executor: ${fmt(exec.statements)} statements (round trips) and ${fmt(exec.cpuMs)} ms of this process's CPU per refund (${cores(exec)})`,
    );
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
