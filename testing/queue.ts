// Runs the real job worker (pg-boss) on a test database until the queue has nothing left to do.
import { startWorker } from "../lib/jobs/worker";
import { countOpenJobs } from "../lib/jobs/count-open-jobs";
import type { TestDb } from "./db";

/** Jobs still to be done (queued, waiting to retry, or taken), the scheduler's own queue aside. */
export async function openJobs(db: Pick<TestDb, "client">): Promise<number> {
  return countOpenJobs({ client: db.client });
}

export async function startTestWorker(db: TestDb, options: { concurrency?: number } = {}) {
  return startWorker({
    client: db.client,
    pglite: db.pglite,
    url: db.url,
    schedule: false,
    concurrency: options.concurrency,
    log: () => {},
  });
}

/** Starts a worker, waits until every job is done (or failed for good), stops it. */
export async function drainQueue(db: TestDb, options: { timeoutMs?: number } = {}): Promise<void> {
  const worker = await startTestWorker(db);
  try {
    const deadline = Date.now() + (options.timeoutMs ?? 25_000);
    for (;;) {
      const open = await openJobs(db);
      if (open === 0) return;
      if (Date.now() > deadline) throw new Error(`the job queue did not drain: ${open} jobs left`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await worker.stop(5_000);
  }
}
