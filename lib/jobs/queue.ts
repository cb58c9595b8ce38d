// The job queue: pg-boss on the app's own database (its tables are in the `pgboss` schema, created by
// the migrations). An effect that must happen after a state change is enqueued by `enqueue` inside
// the transaction that makes the change: both commit, or neither does, so no crash can leave an
// approved refund with nobody to execute it. Workers (lib/jobs/worker.ts) take jobs with
// SKIP LOCKED; a job whose worker died is released when its lock time runs out, and retried.
import PgBoss from "pg-boss";
import type { PGlite } from "@electric-sql/pglite";
import { db as defaultDb, type Db, type DbTx } from "../db";
import { isSqlTx, type TSqlTx } from "../db/driver";
import { env } from "../env";
import { inSpan, SpanKind, traceCarrier } from "../observability/tracing";

export const QUEUE_SCHEMA = "pgboss";

/** Every queue the app uses; each is created by a migration. */
export const QUEUES = {
  /** Execute an approved refund, record its outcome, release the customer's reply. Data: { approvalId }. */
  refundExecute: "refund-execute",
  /** One agent run of a batch (bulk runs, shadow passes). Data: { batchId, ticketId }. */
  agentRun: "agent-run",
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
  const attributes = { "messaging.system": "pg-boss", "messaging.operation.type": "send", "messaging.destination.name": queue, "messaging.batch.message_count": count };
  return inSpan(`send ${queue}`, { kind: SpanKind.PRODUCER, attributes }, () => send(traceCarrier()));
}

const withTrace = (data: object, carrier: Record<string, string>): object => (Object.keys(carrier).length ? { ...data, [TRACE_FIELD]: carrier } : data);

/** Retries back off exponentially from retryDelay seconds; the lock time releases a dead worker's job. */
export function jobOptions(queue: TQueueName): PgBoss.SendOptions {
  const lock = env().JOB_LOCK_SECONDS;
  switch (queue) {
    case QUEUES.refundExecute:
      return { retryLimit: 12, retryDelay: 2, retryBackoff: true, expireInSeconds: lock };
    case QUEUES.agentRun:
      return { retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: Math.max(lock, 300) };
    case QUEUES.auditCheckpoint:
      // Not retried: the next minute's job signs whatever a failed one would have, and a failure shows
      // on Admin → Jobs at once. The lock time matches the signer's transaction timeout, so a slow
      // signature over a long window is not handed to a second worker (which would only find it busy).
      return { retryLimit: 0, expireInSeconds: Math.max(lock, 120) };
    default:
      return { retryLimit: 2, retryDelay: 10, retryBackoff: true, expireInSeconds: lock };
  }
}

/** A job's parameter as the drivers take it: objects (a job's data) as JSON. */
const jobParameter = (v: unknown) => (v === undefined ? null : v !== null && typeof v === "object" && !(v instanceof Date) && !Array.isArray(v) ? JSON.stringify(v) : v);

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
 * Adds a job inside the caller's transaction. `id` makes it idempotent: a second enqueue of the
 * same id while the first is kept adds nothing.
 */
export async function enqueue(tx: DbTx | TSqlTx, queue: TQueueName, data: object, options: { id?: string; startAfter?: number } = {}): Promise<string | null> {
  const db = isSqlTx(tx) ? sqlTxRunner(tx) : prismaRunner(tx);
  return publishing(queue, 1, (carrier) => queueClient().send(queue, withTrace(data, carrier), { ...jobOptions(queue), ...options, db } as PgBoss.SendOptions));
}

/** Several jobs of one queue in the caller's transaction. */
export async function enqueueMany(tx: DbTx, queue: TQueueName, items: { data: object; id?: string }[]): Promise<void> {
  const o = jobOptions(queue);
  await publishing(queue, items.length, (carrier) =>
    queueClient().insert(
      items.map((i) => ({ name: queue, data: withTrace(i.data, carrier), id: i.id, retryLimit: o.retryLimit, retryDelay: o.retryDelay, retryBackoff: o.retryBackoff, expireInSeconds: o.expireInSeconds })),
      { db: prismaRunner(tx) } as PgBoss.InsertOptions,
    ),
  );
}
