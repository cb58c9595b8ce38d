// The job worker: pg-boss takes jobs off the queues (SKIP LOCKED, so any number of workers on any
// number of machines share them), checks each job's payload against its definition, and hands it to
// its handler (lib/jobs/handlers/), which calls the domain function that owns the effect. Every
// handler is idempotent: a job retried after a crash finds its work done and does nothing. What each
// job is – payload, options, schedule – is its definition in lib/jobs/definitions/.
// On PostgreSQL the worker has its own connection pool; on the embedded database it shares the
// server's one PGlite (one process), through pgliteRunner.
import PgBoss from "pg-boss";
import type { PGlite } from "@electric-sql/pglite";
import type { z } from "zod";
import type { Db } from "../db";
import { env } from "../env";
import { takeCheckpoint } from "../audit/checkpoint";
import { tokenizer } from "../llm/tokenizer";
import { subjectFields, withContext } from "../observability/context";
import { errorFields, logger, logLine } from "../observability/logger";
import { contextFromCarrier, inSpan, SpanKind } from "../observability/tracing";
import type { TJobDefinition } from "./define-job";
import { WORKED_JOBS } from "./handlers";
import type { TJobHandler } from "./handlers/job-input";
import { countJobFailure } from "./metrics";
import { pgliteRunner, QUEUE_SCHEMA, sendOptions, TRACE_FIELD, type TQueueName } from "./queue";

export interface TWorker {
  boss: PgBoss;
  /** Takes the next job of a queue now rather than at the next poll (the approve action's wait). */
  nudge(queue: TQueueName): void;
  /** Stops taking jobs, lets running ones finish (up to `timeoutMs`), then releases the rest. */
  stop(timeoutMs?: number): Promise<void>;
}

export interface TWorkerOptions {
  client: Db;
  /** The embedded database the client runs on; absent on PostgreSQL. */
  pglite?: PGlite;
  /** PostgreSQL: the worker's own pool. */
  url?: string;
  /** Jobs of each queue worked on at once by this process. */
  concurrency?: number;
  /** Jobs of each queue that waits on a model (its definition's work.parallel) run at once; AGENT_RUN_CONCURRENCY by default. */
  parallelJobs?: number;
  /** Schedules the routine jobs (their definitions' crons). Tests call the sweeps directly. */
  schedule?: boolean;
  /** Where the worker's lines go instead of the logger (tests collect or silence them). */
  log?: (line: string) => void;
}

type TJob = PgBoss.JobWithMetadata<unknown>;

/** A payload its definition's schema refuses: failed for good, as no retry would change it. */
class MalformedPayload extends Error {}

/** One line naming the queue and every zod issue, for the log and Admin → Jobs. */
function malformedPayload(queue: TQueueName, error: z.ZodError): MalformedPayload {
  const issues = error.issues.map((issue) => `${issue.path.length ? issue.path.join(".") : "the payload"}: ${issue.message}`);
  return new MalformedPayload(`${queue}: the job's payload does not match its definition (${issues.join("; ")})`);
}

/** The pg-boss the worker runs on: its own pool on PostgreSQL, the server's PGlite otherwise. */
function openBoss(options: TWorkerOptions): PgBoss {
  const connection = options.pglite
    ? { db: pgliteRunner(options.pglite) }
    : { connectionString: options.url, max: 4, application_name: process.env.PGAPPNAME ?? "countersign-worker" };
  return new PgBoss({
    ...connection,
    schema: QUEUE_SCHEMA,
    migrate: false,
    supervise: true,
    schedule: options.schedule ?? true,
    // A job taken by a worker that died is released when its lock time (expireInSeconds) runs out:
    // the maintenance pass that does it runs this often.
    maintenanceIntervalSeconds: 5,
    // Finished jobs are kept a week for the admin page, then archived and deleted.
    archiveCompletedAfterSeconds: 7 * 24 * 3600,
    archiveFailedAfterSeconds: 14 * 24 * 3600,
    deleteAfterDays: 7,
  });
}

type TWorking = {
  boss: PgBoss;
  options: TWorkerOptions;
  /** A failure: its line at warn with the error and the attempt, or the same words to options.log. */
  warn: (fields: Record<string, unknown>, line: string) => void;
};

/**
 * One job, in a context and a span of its own: its lines carry the job's id and the ids its data
 * names (approval, ticket); its span continues the trace that enqueued it. A failure fails the job
 * alone (retried with backoff while attempts are left); a malformed payload never reaches the handler.
 */
async function processJob(w: TWorking, definition: TJobDefinition, handle: TJobHandler, job: TJob): Promise<boolean> {
  const { queue } = definition;
  return withContext({ ...subjectFields(job.data), jobId: job.id, queue }, async () => {
    try {
      const attributes = {
        "messaging.system": "pg-boss",
        "messaging.operation.type": "process",
        "messaging.destination.name": queue,
        "messaging.message.id": job.id,
        "countersign.job.attempt": job.retryCount + 1,
      };
      const parent = contextFromCarrier((job.data as Record<string, unknown> | null)?.[TRACE_FIELD]);
      const result = await inSpan(`process ${queue}`, { kind: SpanKind.CONSUMER, parent, attributes }, () => {
        const payload = definition.payload.safeParse(job.data);
        if (!payload.success) throw malformedPayload(queue, payload.error);
        const log = w.options.log ?? logLine;
        return handle({ data: payload.data, client: w.options.client, log, lastAttempt: job.retryCount >= job.retryLimit });
      });
      if (w.options.log === undefined)
        logger[definition.schedule ? "debug" : "info"]({ result: typeof result === "string" ? result : undefined }, `job ${queue} done`);
      return true;
    } catch (error) {
      await failJob(w, queue, job, error);
      return false;
    }
  });
}

async function failJob(w: TWorking, queue: TQueueName, job: TJob, error: unknown): Promise<void> {
  const malformed = error instanceof MalformedPayload;
  // No attempt is left for a payload no retry would mend: pg-boss fails a job for good when its
  // retry count has reached its limit.
  if (malformed)
    await w.boss
      .getDb()
      .executeSql(`UPDATE ${QUEUE_SCHEMA}.job SET retry_limit = retry_count WHERE name = $1 AND id = $2::uuid`, [queue, job.id]);
  const final = malformed || job.retryCount >= job.retryLimit;
  const attempts = malformed ? job.retryCount + 1 : job.retryLimit + 1;
  countJobFailure(queue, final);
  const message = error instanceof Error ? error.message : String(error);
  w.warn(
    { ...errorFields(error), attempt: job.retryCount + 1, attempts, final },
    `job ${queue} ${job.id} failed (attempt ${job.retryCount + 1} of ${attempts}): ${message}`,
  );
  await w.boss.fail(queue, job.id, error instanceof Error ? { message: error.message, stack: error.stack } : { message });
}

/**
 * `concurrency` workers on one queue, each taking up to its definition's batch at a time and settling
 * each job on its own: a failing job is failed without failing the others, which pg-boss then completes.
 */
async function workQueue(w: TWorking, definition: TJobDefinition, handle: TJobHandler, concurrency: number): Promise<string[]> {
  const { batchSize = 1, pollingIntervalSeconds = 0.5 } = definition.work ?? {};
  const ids: string[] = [];
  for (let i = 0; i < concurrency; i++) {
    ids.push(
      await w.boss.work(definition.queue, { batchSize, pollingIntervalSeconds, includeMetadata: true }, async (jobs) => {
        for (const job of jobs) {
          await processJob(w, definition, handle, job);
          // On the embedded database every query resolves without leaving the event loop: let
          // requests, timers and I/O have their turn between jobs, or a bulk batch starves the server.
          await new Promise((resolve) => setImmediate(resolve));
        }
      }),
    );
  }
  return ids;
}

/** A queue worked by a pool: how to wake it, and how to stop it. */
interface TPool {
  nudge(): void;
  stop(timeoutMs: number): Promise<void>;
}

/**
 * A queue whose jobs spend their time waiting on a model: up to `slots` of its jobs at once, a free
 * slot filled as soon as it frees (one fetch takes as many jobs as slots are free), so a slow job
 * holds only its own slot. How fast they call the model is the model limiter's to say
 * (lib/llm/model-limiter.ts), for every process together; this only bounds what one process holds.
 */
function poolQueue(w: TWorking, definition: TJobDefinition, handle: TJobHandler, slots: number): TPool {
  const { queue } = definition;
  const intervalMs = (definition.work?.pollingIntervalSeconds ?? 0.5) * 1000;
  const running = new Map<string, Promise<void>>();
  let stopped = false;
  let wake: (() => void) | undefined;
  // Until the interval has passed, a job has ended (a slot is free) or a producer nudged.
  const nap = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => wake?.(), ms);
      wake = () => (clearTimeout(timer), (wake = undefined), resolve());
    });
  const start = (job: TJob) => {
    const done = (async () => {
      // On the embedded database every query resolves without leaving the event loop: each job waits
      // for the loop's turn before it starts, so requests, timers and I/O are served between jobs
      // however many slots there are (as workQueue does), and a bulk batch never starves the server.
      await new Promise((resolve) => setImmediate(resolve));
      if (await processJob(w, definition, handle, job))
        await w.boss
          .complete(queue, job.id)
          .catch((error: Error) => w.warn(errorFields(error), `job ${queue} ${job.id}: ${error.message}`));
    })().finally(() => {
      running.delete(job.id);
      wake?.();
    });
    running.set(job.id, done);
  };
  const loop = (async () => {
    while (!stopped) {
      const free = slots - running.size;
      let taken = 0;
      if (free > 0) {
        const jobs = (await w.boss.fetch(queue, { batchSize: free, includeMetadata: true }).catch((error: Error) => {
          w.warn(errorFields(error), `job queue ${queue}: ${error.message}`);
          return [];
        })) as TJob[];
        jobs.forEach(start);
        taken = jobs.length;
      }
      // A full fetch may have left more behind: ask again at once while slots are free.
      if (!stopped && (taken === 0 || taken < free || running.size >= slots)) await nap(running.size >= slots ? 60_000 : intervalMs);
    }
  })();
  return {
    nudge: () => wake?.(),
    async stop(timeoutMs) {
      stopped = true;
      wake?.();
      await loop;
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), timeoutMs)));
      const settled = await Promise.race([Promise.allSettled([...running.values()]), timedOut]);
      clearTimeout(timer);
      // Jobs still running are failed, which retries them elsewhere, as pg-boss's graceful stop does.
      if (settled === "timeout" && running.size) {
        w.warn({}, `job ${queue}: ${running.size} job(s) still running after ${timeoutMs / 1000} s are released for another worker`);
        const message = { message: "the worker stopped before the job finished" };
        await Promise.all([...running.keys()].map((id) => w.boss.fail(queue, id, message)));
      }
    },
  };
}

export async function startWorker(options: TWorkerOptions): Promise<TWorker> {
  // Its agent runs call the model when one is configured: the token counter is loaded now, not in the first run.
  if (env().LLM_BASE_URL) void tokenizer();
  const warn = (fields: Record<string, unknown>, line: string) => (options.log ? options.log(line) : logger.warn(fields, line));
  const boss = openBoss(options);
  boss.on("error", (error: Error) => warn(errorFields(error), `job queue: ${error.message}`));
  await boss.start();

  const working: TWorking = { boss, options, warn };
  const workerIds = new Map<TQueueName, string[]>();
  const pools = new Map<TQueueName, TPool>();
  const parallel = options.parallelJobs ?? env().AGENT_RUN_CONCURRENCY;
  for (const { job, handle } of WORKED_JOBS) {
    if (job.work?.parallel) pools.set(job.queue, poolQueue(working, job, handle, parallel));
    else workerIds.set(job.queue, await workQueue(working, job, handle, options.concurrency ?? 2));
  }
  if (options.schedule ?? true) {
    // The cron sends each routine job with its definition's options, as any producer would.
    for (const { job } of WORKED_JOBS) if (job.schedule) await boss.schedule(job.queue, job.schedule.cron, {}, sendOptions(job));
  }

  let stopping: Promise<void> | undefined;
  return {
    boss,
    nudge(queue) {
      pools.get(queue)?.nudge();
      for (const id of workerIds.get(queue) ?? []) boss.notifyWorker(id);
    },
    stop(timeoutMs = 20_000) {
      // graceful: running jobs finish; those still running at the timeout are failed, which retries them.
      stopping ??= (async () => {
        const started = Date.now();
        await Promise.all([...pools.values()].map((pool) => pool.stop(timeoutMs)));
        await boss.stop({ graceful: true, timeout: Math.max(1_000, timeoutMs - (Date.now() - started)), close: true, wait: true });
      })();
      return stopping;
    },
  };
}

/**
 * The last checkpoint of a process that stops cleanly, signed after its worker has stopped: what the
 * worker did last is not left unsigned until some worker runs again. Bounded: a database that does
 * not answer must not hold the process up; a timeout or a failure is one line, and whatever it
 * missed is signed by the next checkpoint job.
 */
export async function signLastCheckpoint(client: Db, options: { log?: (line: string) => void; timeoutMs?: number } = {}): Promise<void> {
  const log = options.log ?? logLine;
  const timeoutMs = options.timeoutMs ?? 5_000;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  try {
    const result = await Promise.race([takeCheckpoint(client, { log: (line) => log(`shutdown: ${line}`) }), timedOut]);
    if (result === "timeout") log(`shutdown: no audit checkpoint within ${timeoutMs / 1000} s; the next checkpoint job signs what is new`);
    else if ("skipped" in result)
      log(
        `shutdown: no audit checkpoint signed (${result.skipped === "busy" ? "another process is signing one" : "nothing new since the last one"})`,
      );
  } catch (error) {
    log(`shutdown: the audit checkpoint failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    clearTimeout(timer);
  }
}

/** The worker this process runs, if any (the embedded server runs one in-process). */
export function processWorker(): TWorker | undefined {
  return (globalThis as unknown as { __countersignWorker?: TWorker }).__countersignWorker;
}

export function setProcessWorker(worker: TWorker | undefined): void {
  (globalThis as unknown as { __countersignWorker?: TWorker }).__countersignWorker = worker;
}

/** Whether this server process should run a worker: the embedded database always needs one. */
export function serverRunsWorker(): boolean {
  return env().WORKER === "on";
}
