// The admins' view of the job queue: a job that fails for good keeps its error, is listed as failed,
// and only an admin can send it back; the retry is audited and the job runs again.
import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { startTestWorker } from "../../testing/queue";
import { user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { driverOf, Prisma, useDb } from "../db";
import { enqueue, enqueueMany, QUEUE_SCHEMA, sendingJobCte } from "./queue";
import { AGENT_RUN_JOB, AUDIT_CHECKPOINT_JOB, REFUND_EXECUTE_JOB, SWEEP_RUNS_JOB, SWEEP_SESSIONS_JOB } from "./definitions";
import { countOpenJobs } from "./count-open-jobs";
import { recordFailedJob } from "./record-failed-job";
import { jobCounts, listJobs } from "./list-jobs";
import { retryFailedJob } from "./retry-job";
import { refusalCode } from "../../testing/refusals";

const testDb = useTestDb(seedDemo);

describe("failed jobs", () => {
  it("keeps a job that keeps failing with its error, and lets only an admin retry it", async () => {
    const db = testDb();
    const approvalId = "0e2e0000-0000-4000-8000-0000000b0001";
    // A refund job whose approval does not exist fails on every attempt; with no retries left it stays failed.
    const jobId = await db.client.$transaction((tx) => enqueue(tx, REFUND_EXECUTE_JOB, { approvalId }, { id: approvalId }));
    await db.client.$executeRawUnsafe(`UPDATE pgboss.job SET retry_limit = 0 WHERE id = $1::uuid`, jobId);
    const worker = await startTestWorker(db);
    try {
      for (let i = 0; i < 100 && (await listJobs({ view: "failed" })).length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    } finally {
      await worker.stop(5_000);
    }
    const [failed] = await listJobs({ view: "failed" });
    expect(failed).toMatchObject({
      id: jobId,
      queue: "refund-execute",
      state: "failed",
      error: `settleApprovedRefund: no approval ${approvalId}`,
    });
    expect(await jobCounts()).toContainEqual({ queue: "refund-execute", state: "failed", count: 1 });

    for (const role of ["REVIEWER", "SPECIALIST", "LEAD"] as const)
      expect(await refusalCode(retryFailedJob({ queue: "refund-execute", jobId: jobId!, actor: await user(db.client, role) }))).toBe(
        "forbidden",
      );
    const admin = await user(db.client, "ADMIN");
    expect(
      await refusalCode(retryFailedJob({ queue: "refund-execute", jobId: "00000000-0000-4000-8000-000000000000", actor: admin })),
    ).toBe("not_found");
    expect(await refusalCode(retryFailedJob({ queue: "no-such-queue", jobId: jobId!, actor: admin }))).toBe("not_found");
    expect(await refusalCode(retryFailedJob({ queue: "refund-execute", jobId: jobId!, actor: admin }))).toBe("accepted");
    expect(await listJobs({ view: "failed" })).toEqual([]);
    expect((await listJobs({ view: "waiting" })).map((j) => j.id)).toEqual([jobId]);
    // Twice is refused: it is no longer failed.
    expect(await refusalCode(retryFailedJob({ queue: "refund-execute", jobId: jobId!, actor: admin }))).toBe("not_failed");
    expect(await db.client.auditEvent.count({ where: { action: "job.retried", subjectId: jobId!, actorId: admin.id } })).toBe(1);
  });
});

describe("a failed job recorded for the jobs page's fixtures", () => {
  it("is listed as failed with its error, once per id, and an admin's retry sends it back", async () => {
    const db = testDb();
    const id = "0e2e0000-0000-4000-8000-0000000f0001";
    const record = () =>
      recordFailedJob({ job: SWEEP_RUNS_JOB, data: {}, id, error: "Connection terminated unexpectedly", client: db.client });
    expect([await record(), await record()]).toEqual([true, false]);
    const failed = (await listJobs({ view: "failed", client: db.client })).filter((j) => j.id === id);
    expect(failed).toEqual([
      expect.objectContaining({ queue: "sweep-runs", state: "failed", error: "Connection terminated unexpectedly" }),
    ]);
    expect(await refusalCode(retryFailedJob({ queue: "sweep-runs", jobId: id, actor: await user(db.client, "ADMIN") }))).toBe("accepted");
    expect((await listJobs({ view: "waiting", client: db.client })).map((j) => j.id)).toContain(id);
    expect(await countOpenJobs({ client: db.client, queues: [SWEEP_RUNS_JOB.queue] })).toBe(1);
  });
});

describe("a job written in the caller's transaction", () => {
  // Grading runs the runtime on a database of its own: had enqueueing asked for the process-wide
  // client, `npm run eval` would open the app's embedded database beside its own (about 150 MB more
  // at its peak), or be refused while the server holds it.
  it("is written, sent in a batch and retried without the process-wide database", async () => {
    const db = testDb();
    const [one, two, three] = [
      "0e2e0000-0000-4000-8000-0000000e0001",
      "0e2e0000-0000-4000-8000-0000000e0002",
      "0e2e0000-0000-4000-8000-0000000e0003",
    ];
    await recordFailedJob({ job: SWEEP_RUNS_JOB, data: {}, id: three, error: "failed for the test", client: db.client });
    const admin = await user(db.client, "ADMIN");
    const untouchable = new Proxy(
      {},
      {
        get: (_, key) => {
          throw new Error(`the process-wide database was asked for ${String(key)}`);
        },
      },
    );
    useDb({ ...db, client: untouchable as typeof db.client });
    try {
      await db.client.$transaction(async (tx) => {
        await enqueue(tx, REFUND_EXECUTE_JOB, { approvalId: one }, { id: one });
        await enqueueMany(tx, REFUND_EXECUTE_JOB, [{ data: { approvalId: two }, id: two }]);
      });
      await retryFailedJob({ queue: SWEEP_RUNS_JOB.queue, jobId: three, actor: admin, client: db.client });
    } finally {
      useDb(db);
    }
    const waiting = (await listJobs({ view: "waiting", client: db.client })).map((j) => j.id);
    expect(waiting).toEqual(expect.arrayContaining([one, two, three]));
  });
});

describe("a job written by a CTE of the caller's statement", () => {
  it("is the row pg-boss's send writes, for every queue that has no schedule of its own, and is written once per id", async () => {
    const db = testDb();
    const driver = driverOf(db.client);
    const columns = `name, data, priority, state, retry_limit, retry_count, retry_delay, retry_backoff, singleton_key, singleton_on, expire_in::text, (keep_until - start_after)::text AS kept, (start_after <= now()) AS due, dead_letter, policy`;
    const id = "0e2e0000-0000-4000-8000-0000000c0000";
    const sends = [
      { job: REFUND_EXECUTE_JOB, data: { approvalId: id } },
      { job: AGENT_RUN_JOB, data: { batchId: id, ticketId: id } },
      { job: AUDIT_CHECKPOINT_JOB, data: {} },
      { job: SWEEP_SESSIONS_JOB, data: {} },
    ] as const;
    for (const [i, { job: definition, data }] of sends.entries()) {
      const queue = definition.queue;
      const [sentId, cteId] = [`0e2e0000-0000-4000-8000-0000000c${i}001`, `0e2e0000-0000-4000-8000-0000000c${i}002`];
      await db.client.$transaction((tx) => enqueue(tx, definition, data, { id: sentId }));
      const write = () =>
        sendingJobCte({ name: "job", source: "one", job: definition, data, id: cteId }, (job) => {
          const statement = Prisma.sql`WITH one AS (SELECT 1), ${job} SELECT 1 AS "done"`;
          return driver.rows(statement.text, statement.values);
        });
      await write();
      await write(); // the same id again: kept as it is
      const [sent] = await driver.rows(`SELECT ${columns} FROM ${QUEUE_SCHEMA}.job WHERE id = $1::uuid`, [sentId]);
      const written = await driver.rows(`SELECT ${columns} FROM ${QUEUE_SCHEMA}.job WHERE id = $1::uuid`, [cteId]);
      expect(written, queue).toEqual([sent]);
    }
  });

  it("is not written when its source has no row", async () => {
    const db = testDb();
    const id = "0e2e0000-0000-4000-8000-0000000d0001";
    await sendingJobCte({ name: "job", source: "none", job: REFUND_EXECUTE_JOB, data: { approvalId: id }, id }, (job) => {
      const statement = Prisma.sql`WITH none AS (SELECT 1 WHERE false), ${job} SELECT 1 AS "done"`;
      return driverOf(db.client).rows(statement.text, statement.values);
    });
    expect(await db.client.$queryRawUnsafe(`SELECT id FROM ${QUEUE_SCHEMA}.job WHERE id = $1::uuid`, id)).toEqual([]);
  });
});
