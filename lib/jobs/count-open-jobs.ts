// Jobs still to be done – queued, waiting to retry, or taken – for whoever waits for the queue to
// drain (the tests' drainQueue, the chaos run), so none of them reads pg-boss's tables itself.
import { db as defaultDb, type Db } from "../db";
import { QUEUES, QUEUE_SCHEMA, type TQueueName } from "./queue";

export async function countOpenJobs(input: { client?: Db; queues?: readonly TQueueName[] } = {}): Promise<number> {
  const client = input.client ?? defaultDb();
  const [row] = await client.$queryRawUnsafe<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM ${QUEUE_SCHEMA}.job WHERE name = ANY($1::text[]) AND state < 'completed'`,
    [...(input.queues ?? Object.values(QUEUES))],
  );
  return row!.n;
}
