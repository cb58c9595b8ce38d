// The job queue: pg-boss on the app's own database (its tables are in the `pgboss` schema, created by
// the migrations). An effect that must happen after a state change is enqueued by `enqueue` inside
// the transaction that makes the change: both commit, or neither does, so no crash can leave an
// approved refund with nobody to execute it. Workers (lib/jobs/worker.ts) take jobs with
// SKIP LOCKED; a job whose worker died is released when its lock time runs out, and retried.
import PgBoss from "pg-boss";
import type { PGlite } from "@electric-sql/pglite";
import { db as defaultDb, Prisma, type Db, type DbTx } from "../db";
import { isSqlTx, type TSqlTx } from "../db/driver";
import { env } from "../env";
import { inSpan, SpanKind, traceCarrier } from "../observability/tracing";
import type { TJobDefinition, TJobOptions, TJobPayload } from "./define-job";

export const QUEUE_SCHEMA = "pgboss";

/**
 * Every queue the app uses; each is created by a migration (queue-definitions.integration.test.ts
 * holds the two together) and defined in lib/jobs/definitions/, its handler in lib/jobs/handlers/.
 */
export const QUEUES = {
  /** Execute an approved refund, record its outcome, release the customer's reply. Data: { approvalId }. */
  refundExecute: "refund-execute",
  /** One agent run of a batch (bulk runs, shadow passes). Data: { batchId, ticketId }. */
  agentRun: "agent-run",
  /** One run asked for on the ticket page or by the CLI, its steps written as they come. Data: { runId, ticketId, mode, planner, startedBy }. Its id is the run's. */
  liveRun: "live-run",
  /** One assignment of a bulk batch (lib/agent/batches.ts). Data: { batchId, ticketId }. */
  bulkAssign: "bulk-assign",
  /** Runs whose lease ran out become interrupted. */
  sweepRuns: "sweep-runs",
  /** Pending approvals past their expiry are marked expired. */
  sweepApprovals: "sweep-approvals",
  /** Approved refunds with no outcome and no job get a job again. */
  reconcileRefunds: "reconcile-refunds",
  /** Sign a checkpoint of the audit chain (lib/audit/checkpoint.ts), when something is new. */
  auditCheckpoint: "audit-checkpoint",
  /** Sessions idle past their lifetime are deleted (lib/auth/sweep-sessions.ts). */
  sweepSessions: "sweep-sessions",
  /** Personal data kept past its retention period is erased (lib/privacy/apply-retention.ts). */
  retention: "retention",
  /** Gather one customer's data for their export (lib/privacy/export-subject.ts). Data: { exportId }. */
  subjectExport: "subject-export",
  /** Post one approval notification to the configured webhook (lib/approvals/notify-approval.ts).
   * Data: { approvalId, event } (event: lib/contracts/approval-notification.ts). */
  approvalNotify: "approval-notify",
  /** Pending approvals expiring within the reminder's lead time get their reminder (lib/approvals/remind-approvals.ts). */
  remindApprovals: "remind-approvals",
  /** Grade a policy version before it is published, against the corpus in effect (lib/documents/evaluate-version.ts). Data: { evaluationId }. */
  evaluateDocument: "evaluate-document",
  /** Published policy versions superseded by a scheduled version that has taken effect are retired (lib/documents/retire-superseded-versions.ts). */
  retireSuperseded: "retire-superseded",
  /** Refunds at the payment provider not final after a while are settled from the provider's word (lib/approvals/reconcile-refunds.ts). */
  reconcilePayments: "reconcile-payments",
  /** Deliver one released reply through the configured channel (lib/delivery/deliver-reply.ts). Data: { deliveryId }. */
  replyDeliver: "reply-deliver",
  /** Grade the agent on an episode dataset, as a lead asked from /evals (lib/eval/agent-evaluation.ts). Data: { requestId }. */
  evaluateAgent: "evaluate-agent",
  /** The daily series against their thresholds: a crossing is recorded once and posted to the notification webhook (lib/eval/series-alerts.ts). */
  seriesAlerts: "series-alerts",
} as const;
export type TQueueName = (typeof QUEUES)[keyof typeof QUEUES];

/**
 * The field of a job's data that carries the trace it was enqueued in (W3C traceparent), so the
 * worker's span continues it: an approval and the refund job it caused are one trace. Present only
 * while telemetry records; the handlers never read it.
 */
export const TRACE_FIELD = "trace";

/** Enqueues inside a producer span, handing the span's trace to the job's data. */
function publishing<T>(queue: TQueueName, count: number, send: (carrier: Record<string, string>) => Promise<T>): Promise<T> {
  const attributes = {
    "messaging.system": "pg-boss",
    "messaging.operation.type": "send",
    "messaging.destination.name": queue,
    "messaging.batch.message_count": count,
  };
  return inSpan(`send ${queue}`, { kind: SpanKind.PRODUCER, attributes }, () => send(traceCarrier()));
}

// pg-boss stores a job without data as null, whatever its types say.
const withTrace = (data: object | null | undefined, carrier: Record<string, string>): object =>
  Object.keys(carrier).length ? { ...data, [TRACE_FIELD]: carrier } : (data as object);

/** What a job is sent with: its definition's options under the configured lock time. */
export function sendOptions(job: TJobDefinition): TJobOptions {
  return job.options(env().JOB_LOCK_SECONDS);
}

/** A job's parameter as the drivers take it: objects (a job's data) as JSON. */
const jobParameter = (v: unknown) =>
  v === undefined ? null : v !== null && typeof v === "object" && !(v instanceof Date) && !Array.isArray(v) ? JSON.stringify(v) : v;

type TSqlRunner = { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> };

/** pg-boss's SQL through a Prisma client or transaction: one statement with parameters at a time. */
export function prismaRunner(client: Db | DbTx): TSqlRunner {
  return {
    async executeSql(text, values = []) {
      const params = values.map(jobParameter);
      return { rows: await client.$queryRawUnsafe<unknown[]>(text, ...params) };
    },
  };
}

/** pg-boss's SQL on a driver transaction (lib/db/driver.ts): rows come back as text. */
export function sqlTxRunner(tx: TSqlTx): TSqlRunner {
  return { executeSql: async (text, values = []) => ({ rows: await tx.rows(text, values.map(jobParameter)) }) };
}

/** pg-boss's SQL on an embedded PGlite: its maintenance sends scripts of several statements. */
export function pgliteRunner(pglite: PGlite): TSqlRunner {
  return {
    async executeSql(text, values) {
      if (values && values.length) return pglite.query(text, values);
      const results = await pglite.exec(text);
      return results[results.length - 1] ?? { rows: [] };
    },
  };
}

const SHARED = { schema: QUEUE_SCHEMA, migrate: false } as const;

/** A pg-boss that sends, reads and retries through the app's client; it runs no workers. */
export function queueClient(client: Db = defaultDb()): PgBoss {
  const cache = client as unknown as { __queueClient?: PgBoss };
  cache.__queueClient ??= new PgBoss({ ...SHARED, db: prismaRunner(client) });
  return cache.__queueClient;
}

/**
 * pg-boss's statements for a job written in the caller's own transaction: every call is given the
 * transaction (`db`), and this client has no database of its own. The caller's transaction may be on
 * any database (a grading database, a test's): asking for the process-wide client here would open the
 * app's database beside it – on the embedded database, a second instance in memory, or a refusal
 * while the server holds its directory.
 */
const inCallersTransaction = new PgBoss({
  ...SHARED,
  db: {
    executeSql: () => Promise.reject(new Error("a job written in the caller's transaction was sent without it (db)")),
  },
});

/**
 * Adds a job inside the caller's transaction. `id` makes it idempotent: a second enqueue of the
 * same id while the first is kept adds nothing.
 */
export async function enqueue<D extends TJobDefinition>(
  tx: DbTx | TSqlTx,
  job: D,
  data: TJobPayload<D>,
  options: { id?: string; startAfter?: number } = {},
): Promise<string | null> {
  const db = isSqlTx(tx) ? sqlTxRunner(tx) : prismaRunner(tx);
  return publishing(job.queue, 1, (carrier) =>
    inCallersTransaction.send(job.queue, withTrace(data, carrier), { ...sendOptions(job), ...options, db } as PgBoss.SendOptions),
  );
}

/** A failed job made ready again, inside the caller's transaction. pg-boss answers { affected },
 * though its types say void. */
export async function retryInTransaction(tx: DbTx, queue: TQueueName, id: string): Promise<{ affected: number }> {
  return (await inCallersTransaction.retry(queue, id, { db: prismaRunner(tx) } as never)) as unknown as { affected: number };
}

/** The options of a definition that sendingJobCte writes as pg-boss's send would. */
const CTE_OPTIONS = new Set(["retryLimit", "retryDelay", "retryBackoff", "expireInSeconds"]);

/**
 * A job written by one CTE of the caller's own statement, so that a change and the job that follows it
 * take one round trip: `send` gets the CTE (`<name> AS (INSERT …)`, for its WITH clause), runs the
 * statement inside the producer span whose trace the job carries, and returns what it returns. One job
 * per row of `source` (a CTE of the same statement): it exists exactly when the rows it follows do. The
 * row is the one `enqueue` writes through pg-boss's send, with the definition's options and the rest
 * from the queue's row (jobs.integration.test.ts compares the two), and as idempotent by `id`: a job
 * kept with that id is left as it is.
 */
export function sendingJobCte<T, D extends TJobDefinition>(
  input: { name: string; source: string; job: D; data: TJobPayload<D>; id: string },
  send: (cte: Prisma.Sql) => Promise<T>,
): Promise<T> {
  const { queue } = input.job;
  const o = sendOptions(input.job);
  const unwritten = Object.keys(o).filter((key) => !CTE_OPTIONS.has(key));
  if (unwritten.length) throw new Error(`sendingJobCte does not write ${unwritten.join(", ")} (the options of ${queue})`);
  // pg-boss's precedence: the job's option, then the queue's setting, then its default.
  const backoff = Prisma.sql`coalesce(${o.retryBackoff ?? null}::boolean, q."retry_backoff", false)`;
  const delay = Prisma.sql`coalesce(${o.retryDelay ?? null}::int, q."retry_delay")`;
  return publishing(queue, 1, (carrier) =>
    send(Prisma.sql`${Prisma.raw(input.name)} AS (
      INSERT INTO ${Prisma.raw(QUEUE_SCHEMA)}.job ("id", "name", "data", "priority", "start_after", "singleton_key", "singleton_on", "dead_letter", "expire_in", "keep_until", "retry_limit", "retry_delay", "retry_backoff", "policy")
      SELECT ${input.id}::uuid, q."name", ${JSON.stringify(withTrace(input.data, carrier))}::jsonb, 0, now(), NULL, NULL, q."dead_letter",
             coalesce(${o.expireInSeconds ?? null}::int, q."expire_seconds", 900) * interval '1s',
             now() + CAST(coalesce((q."retention_minutes" * 60)::text, '14 days') AS interval),
             coalesce(${o.retryLimit ?? null}::int, q."retry_limit", 2),
             CASE WHEN ${backoff} THEN greatest(${delay}, 1) ELSE coalesce(${delay}, 0) END,
             ${backoff}, q."policy"
      FROM ${Prisma.raw(input.source)} JOIN ${Prisma.raw(QUEUE_SCHEMA)}.queue q ON q."name" = ${queue}
      ON CONFLICT DO NOTHING
    )`),
  );
}

/**
 * An SQL condition, true while the job of `job`'s queue with the id `idSql` (an expression of the
 * caller's query) is kept: waiting, running, finished or archived. pg-boss's tables stay lib/jobs's
 * own; a caller that must not add a job beside a kept one asks in its own statement.
 */
export function jobKeptSql(job: TJobDefinition, idSql: string): string {
  const queue = `'${job.queue}'`; // a queue name from QUEUES: letters and dashes
  return `(EXISTS (SELECT 1 FROM ${QUEUE_SCHEMA}.job j WHERE j.name = ${queue} AND j.id = ${idSql})
        OR EXISTS (SELECT 1 FROM ${QUEUE_SCHEMA}.archive j WHERE j.name = ${queue} AND j.id = ${idSql}))`;
}

/** Several jobs of one queue in the caller's transaction. */
export async function enqueueMany<D extends TJobDefinition>(
  tx: DbTx,
  job: D,
  items: { data: TJobPayload<D>; id?: string }[],
): Promise<void> {
  const o = sendOptions(job);
  await publishing(job.queue, items.length, (carrier) =>
    inCallersTransaction.insert(
      items.map((i) => ({
        name: job.queue,
        data: withTrace(i.data, carrier),
        id: i.id,
        ...o,
      })),
      { db: prismaRunner(tx) } as PgBoss.InsertOptions,
    ),
  );
}
