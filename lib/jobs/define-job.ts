// What a job is, in one place: its queue, the payload it carries (a zod schema, checked by the worker
// when it takes the job, so a malformed job fails in words instead of reaching its handler), how it
// is sent (retries, lock time), how the worker takes it, and its schedule if it is a routine one.
// Definitions live in lib/jobs/definitions/ (importable by every producer: they name no handler);
// each handler lives in lib/jobs/handlers/, above every part it calls (ARCHITECTURE.md, "The job
// queue"). A queue named in QUEUES fails the typecheck until JOBS has its definition and HANDLERS its
// handler.
import type PgBoss from "pg-boss";
import type { z } from "zod";
import type { TQueueName } from "./queue";

/** What a job is sent with; `sendingJobCte` writes the same row pg-boss's send does from these. */
export type TJobOptions = Pick<PgBoss.SendOptions, "retryLimit" | "retryDelay" | "retryBackoff" | "expireInSeconds" | "deadLetter">;

/** A payload is an object (or, for a routine job, nothing): the worker's context reads its ids. */
export type TPayloadSchema = z.ZodType<unknown, object | null | undefined>;

export interface TJobDefinition<Q extends TQueueName = TQueueName, S extends TPayloadSchema = TPayloadSchema> {
  queue: Q;
  /** The job's data as producers send it (`z.input`) and handlers receive it (`z.output`). */
  payload: S;
  /** From the configured lock time (JOB_LOCK_SECONDS), after which a dead worker's job is released. */
  options: (lockSeconds: number) => TJobOptions;
  /** A routine job: sent by pg-boss's cron with the definition's options, logged at debug. */
  schedule?: { cron: string };
  /**
   * How a worker takes it: jobs per fetch (each settled on its own) and how often it polls; or, for a
   * job that mostly waits on a model, `parallel`: as many at once as the process's AGENT_RUN_CONCURRENCY,
   * each started as a slot frees.
   */
  work?: { batchSize?: number; pollingIntervalSeconds?: number; parallel?: boolean };
}

export type TJobPayload<D extends TJobDefinition> = z.input<D["payload"]>;

/** Keeps the queue's literal and the schema's own type, so producers' payloads are checked. */
export function defineJob<const Q extends TQueueName, S extends TPayloadSchema>(definition: TJobDefinition<Q, S>): TJobDefinition<Q, S> {
  return definition;
}
