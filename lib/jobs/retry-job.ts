// An admin sends a failed job back to the queue: it runs again with a fresh attempt, and the retry is
// audited. Only failed jobs can be retried; the handlers are idempotent, so a retry never doubles an
// effect.
import { mayUse, type Role } from "../contracts/roles";
import { AppError } from "../contracts/app-error";
import { db as defaultDb, type Db } from "../db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { QUEUES, QUEUE_SCHEMA, retryInTransaction, type TQueueName } from "./queue";

export async function retryFailedJob(input: {
  queue: string;
  jobId: string;
  actor: { id: string; role: Role };
  client?: Db;
}): Promise<void> {
  const client = input.client ?? defaultDb();
  if (!mayUse(input.actor.role, "admin")) throw new AppError("forbidden", "Only admins retry jobs.");
  if (!(Object.values(QUEUES) as string[]).includes(input.queue)) throw new AppError("not_found", "There is no such job.");
  await client.$transaction(async (tx) => {
    const [job] = await tx.$queryRawUnsafe<{ state: string; retryCount: number }[]>(
      `SELECT state::text AS state, retry_count AS "retryCount" FROM ${QUEUE_SCHEMA}.job WHERE name = $1 AND id = $2::uuid FOR UPDATE`,
      input.queue,
      input.jobId,
    );
    if (!job) throw new AppError("not_found", "There is no such job (finished jobs are cleaned up after a week).");
    if (job.state !== "failed") throw new AppError("not_failed", `This job is ${job.state}, not failed: only failed jobs can be retried.`);
    await recordAuditEvent(tx, {
      actorType: "user",
      actorId: input.actor.id,
      action: "job.retried",
      subjectType: "job",
      subjectId: input.jobId,
      inputs: { queue: input.queue, retryCount: job.retryCount },
    });
    const result = await retryInTransaction(tx, input.queue as TQueueName, input.jobId);
    if (result.affected !== 1) throw new AppError("not_failed", "This job changed meanwhile: reload the page.");
  });
}
