// A job that failed for good, with its error, as a worker leaves one after its last attempt: the
// browser tests' fixtures for the admins' jobs page. Written through pg-boss (a job sent with no
// retry, then failed), so the row is one pg-boss itself would keep.
import { db as defaultDb, type Db } from "../db";
import type { TJobDefinition, TJobPayload } from "./define-job";
import { prismaRunner, queueClient } from "./queue";

/** Idempotent by `id`: a job already there is left as it is. Answers whether this call wrote it. */
export async function recordFailedJob<D extends TJobDefinition>(input: {
  job: D;
  data: TJobPayload<D>;
  id: string;
  error: string;
  client?: Db;
}): Promise<boolean> {
  const client = input.client ?? defaultDb();
  return client.$transaction(async (tx) => {
    const db = prismaRunner(tx);
    const sent = await queueClient(client).send(input.job.queue, input.data as object, { id: input.id, retryLimit: 0, db } as never);
    if (sent === null) return false;
    await queueClient(client).fail(input.job.queue, input.id, { message: input.error }, { db } as never);
    return true;
  });
}
