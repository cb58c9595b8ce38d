// What operators watch, as OpenTelemetry metrics (exported only when telemetry.ts started an SDK;
// otherwise every call here is a no-op):
//   countersign.approvals.waiting              gauge    approval requests waiting for a person, by the role they need
//   countersign.approvals.oldest_waiting_age   gauge    seconds the oldest of them has waited, by role (0 when none)
//   countersign.queue.depth                    gauge    jobs waiting to be taken (created, or waiting to retry), by queue and state
//   countersign.refund.executions              counter  refunds the executor settled in this process, by outcome
//   countersign.job.failures                   counter  failed job attempts in this process, by queue and whether it was the last
// The gauges read the database when the metrics are collected (once per export interval), straight
// on the driver so the reads add no spans of their own, through indexes: pending requests by
// ("status", "createdAt"), waiting jobs by pg-boss's partial index on state < 'active'.
import { metrics, type Counter, type MeterProvider } from "@opentelemetry/api";
import { Role } from "../../generated/prisma/enums";
import { driverOf, type Db } from "../db";
import { preparedSql } from "../db/driver";
import { logger } from "../observability/logger";
import { QUEUES, QUEUE_SCHEMA } from "./queue";

const METER = "countersign";
const APP_QUEUES = Object.values(QUEUES);
const WAITING_STATES = ["created", "retry"] as const;

const PENDING_APPROVALS =
  preparedSql(`SELECT "requiredRole"::text AS role, count(*)::int AS n, extract(epoch FROM now() - min("createdAt"))::float8 AS oldest
  FROM "ApprovalRequest" WHERE "status" = 'pending' GROUP BY 1`);
const WAITING_JOBS = preparedSql(
  `SELECT name, state::text AS state, count(*)::int AS n FROM ${QUEUE_SCHEMA}.job WHERE state < 'active' AND name = ANY($1::text[]) GROUP BY 1, 2`,
);

// Instruments belong to the meter provider they were made with: one made before an SDK registered
// stays a no-op. So they are made again whenever the registered provider is a new one.
let counters: { provider: MeterProvider; refundExecutions: Counter; jobFailures: Counter } | undefined;
function instruments() {
  const provider = metrics.getMeterProvider();
  if (counters?.provider !== provider) {
    const meter = provider.getMeter(METER);
    counters = {
      provider,
      refundExecutions: meter.createCounter("countersign.refund.executions", {
        description: "Approved refunds settled by the executor, by outcome",
        unit: "{refund}",
      }),
      jobFailures: meter.createCounter("countersign.job.failures", {
        description: "Failed job attempts, by queue; final=true when no retry is left",
        unit: "{attempt}",
      }),
    };
  }
  return counters;
}

export function countRefundExecution(outcome: string): void {
  instruments().refundExecutions.add(1, { outcome });
}

export function countJobFailure(queue: string, final: boolean): void {
  instruments().jobFailures.add(1, { queue, final });
}

/**
 * Registers the gauges that read the database. One call per process that runs a worker (the server
 * with its in-process worker, `npm run worker`): every such process reports the same database, so
 * take the maximum across them, not the sum.
 */
export function observeOperations(client: Db): void {
  const meter = metrics.getMeter(METER);
  const waiting = meter.createObservableGauge("countersign.approvals.waiting", {
    description: "Approval requests waiting for a person, by the role they need",
    unit: "{approval}",
  });
  const oldest = meter.createObservableGauge("countersign.approvals.oldest_waiting_age", {
    description: "How long the oldest waiting approval request has waited, by role",
    unit: "s",
  });
  const depth = meter.createObservableGauge("countersign.queue.depth", {
    description: "Jobs waiting to be taken, by queue and state (created, retry)",
    unit: "{job}",
  });
  meter.addBatchObservableCallback(
    async (result) => {
      try {
        const [approvals, jobs] = await Promise.all([
          driverOf(client).rows(PENDING_APPROVALS),
          driverOf(client).rows(WAITING_JOBS, [APP_QUEUES]),
        ]);
        for (const role of Object.values(Role)) {
          const row = approvals.find((r) => r.role === role);
          result.observe(waiting, row ? Number(row.n) : 0, { role });
          result.observe(oldest, row ? Math.max(0, Math.round(Number(row.oldest))) : 0, { role });
        }
        for (const queue of APP_QUEUES) {
          for (const state of WAITING_STATES) {
            const row = jobs.find((r) => r.name === queue && r.state === state);
            result.observe(depth, row ? Number(row.n) : 0, { queue, state });
          }
        }
      } catch (error) {
        // A database that does not answer now is reported by its absence from this collection.
        logger.warn({ err: error }, "metrics: reading the approvals and the job queue failed");
      }
    },
    [waiting, oldest, depth],
  );
}
