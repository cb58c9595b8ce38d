// npm run worker: a job worker as its own process, on PostgreSQL (run as many as you like, on any
// machines; they share the queue). SIGTERM or Ctrl-C stops it cleanly: running jobs finish, jobs
// still running after 20 s are released for another worker, then a last audit checkpoint is signed
// (for at most 5 s). Its lines are JSON (lib/observability/logger.ts); with OTEL_EXPORTER_OTLP_ENDPOINT
// set, each job is a span and the queue's and the approvals' metrics are exported.
import { runScript } from "./run-script";
import { dbHandle } from "../lib/db";
import { env } from "../lib/env";
import { observeOperations } from "../lib/jobs/metrics";
import { signLastCheckpoint, startWorker } from "../lib/jobs/worker";
import { logger } from "../lib/observability/logger";

async function main(): Promise<number> {
  const url = env().DATABASE_URL;
  if (!url) {
    console.error("npm run worker needs DATABASE_URL (PostgreSQL). On the embedded database, npm start runs the worker in the server.");
    return 2;
  }
  const { client } = dbHandle();
  const worker = await startWorker({ client, url });
  observeOperations(client);
  logger.info(`Worker ${process.pid} is taking jobs. Ctrl-C or SIGTERM stops it cleanly.`);
  await new Promise<void>((resolve) => {
    for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => resolve());
  });
  logger.info("Stopping: finishing running jobs…");
  await worker.stop(20_000);
  await signLastCheckpoint(client);
  logger.info("Worker stopped.");
  return 0;
}

runScript(main, undefined, { span: false });
