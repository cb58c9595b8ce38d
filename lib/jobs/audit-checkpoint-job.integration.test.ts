// The audit checkpoint as a job (every minute, on the worker's client) and at shutdown (after the
// worker stops, bounded). The key and the checkpoint file are the defaults, in a data directory of
// this file's own.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { untilCheckpointCoversAll, testAuditAction } from "../../testing/audit";
import { openJobs } from "../../testing/queue";
import { seedDemo } from "../../prisma/seed/demo";
import { checkpointFile, readCheckpointFile } from "../audit/checkpoint";
import { recordAuditEvent } from "../audit/record-audit-event";
import { enqueue, QUEUES, QUEUE_SCHEMA } from "./queue";
import { AUDIT_CHECKPOINT_JOB } from "./definitions";
import { signLastCheckpoint, startWorker } from "./worker";

// Read once by env(), which nothing has called yet.
process.env.DATA_DIR = mkdtempSync(join(tmpdir(), "checkpoint-job-"));
delete process.env.AUDIT_SIGNING_KEY;
delete process.env.AUDIT_CHECKPOINT_FILE;

const testDb = useTestDb(seedDemo);

const newEvent = () =>
  testDb().client.$transaction((tx) =>
    recordAuditEvent(tx, { actorType: "system", action: testAuditAction("checkpoint_job"), subjectType: "test" }),
  );

describe("the audit-checkpoint job", { timeout: 120_000 }, () => {
  it("is scheduled every minute, not retried", async () => {
    const db = testDb();
    const worker = await startWorker({ client: db.client, pglite: db.pglite, url: db.url, schedule: true, log: () => {} });
    try {
      const rows = await db.client.$queryRawUnsafe<{ cron: string; options: { retryLimit?: number } }[]>(
        `SELECT cron, options FROM ${QUEUE_SCHEMA}.schedule WHERE name = $1`,
        QUEUES.auditCheckpoint,
      );
      expect(rows).toEqual([expect.objectContaining({ cron: "* * * * *", options: expect.objectContaining({ retryLimit: 0 }) })]);
    } finally {
      await worker.stop(5_000);
    }
  });

  it("signs with the worker's client into the database, the checkpoint file and the worker's log", async () => {
    const db = testDb();
    const lines: string[] = [];
    const worker = await startWorker({
      client: db.client,
      pglite: db.pglite,
      url: db.url,
      schedule: false,
      log: (line) => lines.push(line),
    });
    try {
      await db.client.$transaction((tx) => enqueue(tx, AUDIT_CHECKPOINT_JOB, {}));
      for (let i = 0; i < 200 && (await openJobs(db)) > 0; i++) await new Promise((r) => setTimeout(r, 50));
    } finally {
      await worker.stop(5_000);
    }
    expect(lines.filter((l) => !l.startsWith("No AUDIT_SIGNING_KEY set"))).toEqual([
      expect.stringMatching(/^audit checkpoint \{"position":1,/),
    ]);
    const rows = await db.client.auditCheckpoint.findMany({ orderBy: { position: "asc" } });
    expect(rows.map((r) => r.position)).toEqual([1]);
    expect(readCheckpointFile(checkpointFile()).map((c) => c.hash)).toEqual([rows[0]!.hash]);
  });
});

describe("the last checkpoint at shutdown", () => {
  it("signs what is new, else says there is nothing; each in one line", async () => {
    const { client } = testDb();
    await newEvent();
    await untilCheckpointCoversAll(testDb().client);
    const lines: string[] = [];
    await signLastCheckpoint(client, { log: (line) => lines.push(line) });
    await signLastCheckpoint(client, { log: (line) => lines.push(line) });
    expect(lines).toEqual([
      expect.stringMatching(/^shutdown: audit checkpoint \{"position":2,/),
      "shutdown: no audit checkpoint signed (nothing new since the last one)",
    ]);
    expect(readCheckpointFile(checkpointFile()).map((c) => c.position)).toEqual([1, 2]);
  });

  it.runIf(!!process.env.DATABASE_URL)("gives up after its time, in one line, when the database does not answer", async () => {
    const db = testDb();
    await newEvent();
    // The table's owner holds a lock the signer's first read of AuditCheckpoint waits on.
    const owner = new pg.Client({ connectionString: db.ownerUrl });
    await owner.connect();
    try {
      await owner.query(`BEGIN; LOCK TABLE "AuditCheckpoint" IN ACCESS EXCLUSIVE MODE`);
      const lines: string[] = [];
      const started = Date.now();
      await signLastCheckpoint(db.client, { log: (line) => lines.push(line), timeoutMs: 500 });
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(lines).toEqual(["shutdown: no audit checkpoint within 0.5 s; the next checkpoint job signs what is new"]);
    } finally {
      await owner.query("ROLLBACK");
      await owner.end();
    }
  });
});
