// A bad setting or a bad agent manifest stops start-up with one line, instead of surfacing later as
// a failed request. Then the job worker starts in this process unless WORKER=off: on the embedded
// database it must (one process owns the data directory); on PostgreSQL, `npm run worker` can run
// workers as separate processes instead.
import { agentManifest } from "./lib/agent/manifest";
import { dbHandle } from "./lib/db";
import { describeEnvError, env } from "./lib/env";
import { serverRunsWorker, setProcessWorker, startWorker } from "./lib/jobs/worker";

try {
  env();
  agentManifest();
} catch (error) {
  console.error(describeEnvError(error) ?? (error instanceof Error ? error.message : String(error)));
  process.exit(1);
}

if (serverRunsWorker()) {
  const handle = dbHandle();
  const worker = await startWorker({ client: handle.client, pglite: handle.pglite, url: env().DATABASE_URL });
  setProcessWorker(worker);
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => void worker.stop(10_000).catch(() => {}));
} else if (!env().DATABASE_URL) {
  console.warn("WORKER=off on the embedded database: approved refunds will wait until a server with a worker starts.");
}
