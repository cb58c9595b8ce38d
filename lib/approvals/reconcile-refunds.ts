// The safety net under the refund job: an approved refund with no recorded outcome and no job (an
// approval decided before the job queue existed, or a job deleted by hand) gets its job again. The
// job's id is the approval's, so this can never add a second job beside a live one; a job that
// failed for good is kept for an admin to retry and is left alone here.
import { db as defaultDb, type Db } from "../db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { enqueue, jobKeptSql } from "../jobs/queue";
import { REFUND_EXECUTE_JOB } from "../jobs/definitions";

class JobAlreadyThere extends Error {}

export async function reconcileApprovedRefunds(input: { client?: Db; olderThanMs?: number } = {}): Promise<{ reenqueued: string[] }> {
  const client = input.client ?? defaultDb();
  const before = new Date(Date.now() - (input.olderThanMs ?? 60_000));
  const orphans = await client.$queryRawUnsafe<{ id: string; ticketId: string }[]>(
    `SELECT a.id::text, a."ticketId"::text FROM "ApprovalRequest" a
      WHERE a.kind = 'refund' AND a.status = 'approved' AND a."executionOutcome" IS NULL AND a."createdAt" < $1
        AND NOT ${jobKeptSql(REFUND_EXECUTE_JOB, "a.id")}
      ORDER BY a."createdAt" LIMIT 500`,
    before,
  );
  const reenqueued: string[] = [];
  for (const orphan of orphans) {
    const added = await client
      .$transaction(async (tx) => {
        // The event first, as for every effect; if a job appeared meanwhile, both roll back.
        await recordAuditEvent(tx, {
          actorType: "system",
          actorId: "refund-reconciler",
          action: "refund.reenqueued",
          subjectType: "approval",
          subjectId: orphan.id,
          ticketId: orphan.ticketId,
          inputs: { reason: "approved refund with no recorded outcome and no job" },
        });
        if (!(await enqueue(tx, REFUND_EXECUTE_JOB, { approvalId: orphan.id }, { id: orphan.id }))) throw new JobAlreadyThere();
        return true;
      })
      .catch((error) => {
        if (error instanceof JobAlreadyThere) return false;
        throw error;
      });
    if (added) reenqueued.push(orphan.id);
  }
  return { reenqueued };
}
