// The job worker: pg-boss takes jobs off the queues (SKIP LOCKED, so any number of workers on any
// number of machines share them) and hands each to the domain function that owns the effect. Every
// handler is idempotent: a job retried after a crash finds its work done and does nothing.
//   refund-execute    settleApprovedRefund: execute, record the outcome, release or withhold the reply
//   agent-run         one ticket of a batch (bulk run or shadow pass)
//   bulk-assign       one ticket of an assignment batch
//   sweep-runs        runs whose lease ran out → interrupted, ticket back to a person   (every minute)
//   sweep-approvals   pending requests past their expiry → expired                     (every minute)
//   reconcile-refunds approved refunds with no outcome and no job → a job again, audited (every minute)
//   audit-checkpoint  sign the audit chain's state with the key outside the database    (every minute)
//   sweep-sessions    sessions idle past their lifetime → deleted (refused already)      (every hour)
//   approval-notify   one approval notification posted to the configured webhook, signed
//   remind-approvals  pending requests expiring within the lead time → a reminder, once   (every minute)
// On PostgreSQL the worker has its own connection pool; on the embedded database it shares the
// server's one PGlite (one process), through pgliteRunner.
import PgBoss from "pg-boss";
import type { PGlite } from "@electric-sql/pglite";
import type { Db } from "../db";
import { env } from "../env";
import { settleApprovedRefund } from "../approvals/settle-refund";
import { expirePendingApprovals } from "../approvals/sweep-approvals";
import { deliverApprovalNotification } from "../approvals/notify-approval";
import { remindExpiringApprovals } from "../approvals/remind-approvals";
import { isApprovalNotification, type TApprovalNotification } from "../contracts/approval-notification";
import { reconcileApprovedRefunds } from "../approvals/reconcile-refunds";
import { interruptExpiredRuns } from "../agent/sweep-runs";
import { assignBatchItem, failBatchItem, runBatchItem } from "../agent/batches";
import { defaultPlannerChoice, plannerSetup } from "../llm/choose-planner";
import { recordShadowDecisions } from "../eval/shadow";
import { takeCheckpoint } from "../audit/checkpoint";
import { deleteExpiredSessions } from "../auth/sweep-sessions";
import { subjectFields, withContext } from "../observability/context";
import { errorFields, logger, logLine } from "../observability/logger";
import { activeSpan, contextFromCarrier, inSpan, SpanKind } from "../observability/tracing";
import { countJobFailure, countRefundExecution } from "./metrics";
import { jobOptions, pgliteRunner, QUEUES, QUEUE_SCHEMA, TRACE_FIELD, type TQueueName } from "./queue";

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
  /** Schedules the sweeps (every minute). Tests call the sweeps directly. */
  schedule?: boolean;
  /** Where the worker's lines go instead of the logger (tests collect or silence them). */
  log?: (line: string) => void;
}

type TJob<T> = PgBoss.JobWithMetadata<T>;

// Every minute, and done in an instant: their lines are at debug.
const ROUTINE_QUEUES: ReadonlySet<TQueueName> = new Set([
  QUEUES.sweepRuns,
  QUEUES.sweepApprovals,
  QUEUES.reconcileRefunds,
  QUEUES.auditCheckpoint,
  QUEUES.sweepSessions,
  QUEUES.remindApprovals,
]);

export async function startWorker(options: TWorkerOptions): Promise<TWorker> {
  const { client } = options;
  const log = options.log ?? logLine;
  // A failure: its line at warn with the error and the attempt, or the same words to options.log.
  const warn = (fields: Record<string, unknown>, line: string) => (options.log ? options.log(line) : logger.warn(fields, line));
  const connection = options.pglite
    ? { db: pgliteRunner(options.pglite) }
    : { connectionString: options.url, max: 4, application_name: process.env.PGAPPNAME ?? "countersign-worker" };
  const boss = new PgBoss({
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
  boss.on("error", (error: Error) => warn(errorFields(error), `job queue: ${error.message}`));
  await boss.start();

  const concurrency = options.concurrency ?? 2;
  const workerIds = new Map<TQueueName, string[]>();
  // Each worker takes up to `batchSize` jobs at a time and settles each on its own: a failing job is
  // failed (and retried with backoff) without failing the others, which pg-boss then completes.
  const work = async <T extends object>(
    queue: TQueueName,
    handler: (job: TJob<T>) => Promise<unknown>,
    { batchSize = 1, pollingIntervalSeconds = 0.5 } = {},
  ) => {
    const ids: string[] = [];
    for (let i = 0; i < concurrency; i++) {
      ids.push(
        await boss.work<T>(queue, { batchSize, pollingIntervalSeconds, includeMetadata: true }, async (jobs) => {
          for (const job of jobs) {
            // Each job in a context and a span of its own: its lines carry the job's id and the ids
            // its data names (approval, ticket); its span continues the trace that enqueued it.
            await withContext({ ...subjectFields(job.data), jobId: job.id, queue }, async () => {
              try {
                const attributes = {
                  "messaging.system": "pg-boss",
                  "messaging.operation.type": "process",
                  "messaging.destination.name": queue,
                  "messaging.message.id": job.id,
                  "countersign.job.attempt": job.retryCount + 1,
                };
                const parent = contextFromCarrier((job.data as Record<string, unknown> | null)?.[TRACE_FIELD]);
                const result = await inSpan(`process ${queue}`, { kind: SpanKind.CONSUMER, parent, attributes }, () => handler(job));
                if (options.log === undefined)
                  logger[ROUTINE_QUEUES.has(queue) ? "debug" : "info"](
                    { result: typeof result === "string" ? result : undefined },
                    `job ${queue} done`,
                  );
              } catch (error) {
                const final = job.retryCount >= job.retryLimit;
                countJobFailure(queue, final);
                warn(
                  { ...errorFields(error), attempt: job.retryCount + 1, attempts: job.retryLimit + 1, final },
                  `job ${queue} ${job.id} failed (attempt ${job.retryCount + 1} of ${job.retryLimit + 1}): ${error instanceof Error ? error.message : String(error)}`,
                );
                await boss.fail(
                  queue,
                  job.id,
                  error instanceof Error ? { message: error.message, stack: error.stack } : { message: String(error) },
                );
              }
            });
            // On the embedded database every query resolves without leaving the event loop: let
            // requests, timers and I/O have their turn between jobs, or a bulk batch starves the server.
            await new Promise((resolve) => setImmediate(resolve));
          }
        }),
      );
    }
    workerIds.set(queue, ids);
  };

  await work<{ approvalId: string }>(
    QUEUES.refundExecute,
    async (job) => {
      const settlement = await settleApprovedRefund({ approvalId: job.data.approvalId, client });
      activeSpan()?.setAttributes({
        "countersign.refund.outcome": settlement.outcome,
        "countersign.refund.settled_now": settlement.settledNow,
      });
      if (settlement.settledNow) countRefundExecution(settlement.outcome);
      return settlement.outcome;
    },
    { batchSize: 4 },
  );

  await work<{ batchId: string; ticketId: string }>(
    QUEUES.agentRun,
    async (job) => {
      const batch = await client.agentBatch.findUnique({ where: { id: job.data.batchId }, select: { kind: true, createdById: true } });
      if (!batch) return "skipped";
      try {
        if (batch.kind === "shadow") {
          return await runBatchItem({
            ...job.data,
            client,
            then: async (run, c) => void (await recordShadowDecisions(run, batch.createdById, c)),
          });
        }
        const setup = plannerSetup(await defaultPlannerChoice(client));
        return await runBatchItem({ ...job.data, client, run: { planner: setup.planner, tools: setup.tools, model: setup.model } });
      } catch (error) {
        // The last attempt: the item is marked failed so the batch still finishes; the job keeps the error.
        if (job.retryCount >= job.retryLimit)
          await failBatchItem({ ...job.data, detail: error instanceof Error ? error.message : String(error), client });
        throw error;
      }
    },
    { batchSize: 4 },
  );

  await work<{ batchId: string; ticketId: string }>(
    QUEUES.bulkAssign,
    async (job) => {
      try {
        return await assignBatchItem({ ...job.data, client });
      } catch (error) {
        if (job.retryCount >= job.retryLimit)
          await failBatchItem({ ...job.data, detail: error instanceof Error ? error.message : String(error), client });
        throw error;
      }
    },
    { batchSize: 8 },
  );

  await work(QUEUES.sweepRuns, async () => interruptExpiredRuns({ client }), { pollingIntervalSeconds: 5 });
  await work(QUEUES.sweepApprovals, async () => expirePendingApprovals({ client }), { pollingIntervalSeconds: 5 });
  await work(QUEUES.reconcileRefunds, async () => reconcileApprovedRefunds({ client }), { pollingIntervalSeconds: 5 });
  await work(QUEUES.auditCheckpoint, async () => takeCheckpoint(client, { log }), { pollingIntervalSeconds: 5 });
  await work(QUEUES.sweepSessions, async () => deleteExpiredSessions({ client }), { pollingIntervalSeconds: 30 });
  await work<{ approvalId: string; event: TApprovalNotification }>(
    QUEUES.approvalNotify,
    async (job) => {
      if (!isApprovalNotification(job.data.event)) throw new Error(`approval-notify: unknown event ${String(job.data.event)}`);
      return deliverApprovalNotification({ approvalId: job.data.approvalId, event: job.data.event, client });
    },
    { batchSize: 4 },
  );
  await work(QUEUES.remindApprovals, async () => remindExpiringApprovals({ client }), { pollingIntervalSeconds: 5 });
  if (options.schedule ?? true) {
    for (const queue of [QUEUES.sweepRuns, QUEUES.sweepApprovals, QUEUES.reconcileRefunds, QUEUES.remindApprovals])
      await boss.schedule(queue, "* * * * *");
    await boss.schedule(QUEUES.auditCheckpoint, "* * * * *", {}, jobOptions(QUEUES.auditCheckpoint));
    // Hourly: a swept row changes no answer (an idle session is refused either way), it only frees space.
    await boss.schedule(QUEUES.sweepSessions, "17 * * * *");
  }

  let stopping: Promise<void> | undefined;
  return {
    boss,
    nudge(queue) {
      for (const id of workerIds.get(queue) ?? []) boss.notifyWorker(id);
    },
    stop(timeoutMs = 20_000) {
      // graceful: running jobs finish; those still running at the timeout are failed, which retries them.
      stopping ??= boss.stop({ graceful: true, timeout: timeoutMs, close: true, wait: true });
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
