// One definition per job: every queue has its definition and its handler, the migrations created
// exactly the defined queues, the cron sends each routine job as its definition says, and a job whose
// payload its definition refuses is failed for good, in words, without reaching its handler.
import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { openJobs, startTestWorker } from "../../testing/queue";
import { JOBS } from "./definitions";
import { APPROVAL_NOTIFY_JOB, REFUND_EXECUTE_JOB } from "./definitions";
import { HANDLERS } from "./handlers";
import { listJobs } from "./list-jobs";
import { enqueue, QUEUE_SCHEMA, QUEUES, sendOptions } from "./queue";
import { startWorker } from "./worker";

const testDb = useTestDb();
const names = Object.values(QUEUES).sort();

describe("the job definitions", () => {
  it("give every queue a definition of its own name and a handler", () => {
    expect(Object.keys(JOBS).sort()).toEqual(names);
    expect(Object.keys(HANDLERS).sort()).toEqual(names);
    for (const queue of names) {
      expect(JOBS[queue].queue, queue).toBe(queue);
      expect(typeof HANDLERS[queue], queue).toBe("function");
    }
  });

  it("are the queues the migrations created, and no other", async () => {
    const rows = await testDb().client.$queryRawUnsafe<{ name: string }[]>(
      `SELECT name FROM ${QUEUE_SCHEMA}.queue WHERE name NOT LIKE '\\_\\_pgboss%' ORDER BY name`,
    );
    expect(rows.map((r) => r.name)).toEqual(names);
  });

  it("schedule each routine job with its definition's cron and options, and nothing else", async () => {
    const db = testDb();
    const worker = await startWorker({ client: db.client, pglite: db.pglite, url: db.url, schedule: true, log: () => {} });
    try {
      const rows = await db.client.$queryRawUnsafe<{ name: string; cron: string; data: unknown; options: object }[]>(
        `SELECT name, cron, data, options FROM ${QUEUE_SCHEMA}.schedule ORDER BY name`,
      );
      const routine = Object.values(JOBS)
        .filter((job) => job.schedule)
        .map((job) => ({ name: job.queue, cron: job.schedule!.cron, data: {}, options: sendOptions(job) }))
        .sort((a, b) => a.name.localeCompare(b.name));
      expect(rows).toEqual(routine);
    } finally {
      await worker.stop(5_000);
    }
  });
});

describe("a job whose payload its definition refuses", { timeout: 60_000 }, () => {
  it("is failed for good on its first attempt, naming the queue and the issue, and its handler never runs", async () => {
    const db = testDb();
    const approvalId = "0e2e0000-0000-4000-8000-0000000e0001";
    // Types hold producers to the payload; a job written past them (an older producer, a hand) is what the check is for.
    const refundJob = await db.client.$transaction((tx) => enqueue(tx, REFUND_EXECUTE_JOB, { approvalId: "not-an-id" }));
    const notifyJob = await db.client.$transaction((tx) =>
      enqueue(tx, APPROVAL_NOTIFY_JOB, { approvalId, event: "approval.gone" } as never),
    );
    const lines: string[] = [];
    const worker = await startWorker({ client: db.client, pglite: db.pglite, url: db.url, schedule: false, log: (l) => lines.push(l) });
    try {
      for (let i = 0; i < 200 && (await openJobs(db)) > 0; i++) await new Promise((r) => setTimeout(r, 50));
    } finally {
      await worker.stop(5_000);
    }
    const failed = await listJobs({ view: "failed", client: db.client });
    const refundError = "refund-execute: the job's payload does not match its definition (approvalId: Invalid UUID)";
    const notifyError =
      'approval-notify: the job\'s payload does not match its definition (event: Invalid option: expected one of "approval.waiting"|"approval.expiring")';
    expect(
      failed
        .map(({ id, queue, state, retryCount, error }) => ({ id, queue, state, retryCount, error }))
        .sort((a, b) => a.queue.localeCompare(b.queue)),
    ).toEqual([
      { id: notifyJob, queue: "approval-notify", state: "failed", retryCount: 0, error: notifyError },
      { id: refundJob, queue: "refund-execute", state: "failed", retryCount: 0, error: refundError },
    ]);
    // Had a handler run, the refund's would have failed on the missing approval, the notification's
    // done nothing (no webhook is configured) and completed.
    expect(lines.sort()).toEqual([
      `job approval-notify ${notifyJob} failed (attempt 1 of 1): ${notifyError}`,
      `job refund-execute ${refundJob} failed (attempt 1 of 1): ${refundError}`,
    ]);
  });

  it("leaves a well-formed job to its handler and its retries", async () => {
    const db = testDb();
    const approvalId = "0e2e0000-0000-4000-8000-0000000e0002";
    const jobId = await db.client.$transaction((tx) => enqueue(tx, REFUND_EXECUTE_JOB, { approvalId }, { id: approvalId }));
    const worker = await startTestWorker(db);
    try {
      for (let i = 0; i < 100; i++) {
        const [job] = await db.client.$queryRawUnsafe<{ state: string }[]>(
          `SELECT state::text FROM ${QUEUE_SCHEMA}.job WHERE id = $1::uuid`,
          jobId,
        );
        if (job?.state === "retry") break;
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await worker.stop(5_000);
    }
    const [job] = await db.client.$queryRawUnsafe<{ state: string; retry_limit: number; message: string }[]>(
      `SELECT state::text, retry_limit, output->>'message' AS message FROM ${QUEUE_SCHEMA}.job WHERE id = $1::uuid`,
      jobId,
    );
    expect(job).toEqual({ state: "retry", retry_limit: 12, message: `settleApprovedRefund: no approval ${approvalId}` });
  });
});
