// Every request this server takes runs in a context of its own from the moment it arrives (its id on
// every log line and on the response). A bad setting or a bad agent manifest stops start-up with one
// line, instead of surfacing later as a failed request. OpenTelemetry starts when
// OTEL_EXPORTER_OTLP_ENDPOINT is set (and is not even loaded otherwise). Then the job worker starts
// in this process unless WORKER=off: on the embedded database it must (one process owns the data
// directory); on PostgreSQL, `npm run worker` can run workers as separate processes instead.
import { shedSignIn } from "./lib/auth/shed-sign-in";
import { agentManifest } from "./lib/contracts/manifest";
import { dbHandle } from "./lib/db";
import { describeEnvError, env } from "./lib/env";
import { observeOperations } from "./lib/jobs/metrics";
import { serverRunsWorker, setProcessWorker, signLastCheckpoint, startWorker } from "./lib/jobs/worker";
import { normaliseForwarded } from "./lib/http/forwarded";
import { installRequestContext } from "./lib/observability/http-requests";
import { errorFields, logger } from "./lib/observability/logger";
import { startTelemetry, stopTelemetry } from "./lib/observability/telemetry";

// TRUST_PROXY is read per request, after the check below has stopped a bad value at start-up. A
// sign-in that the bound on password checks would refuse anyway is refused before Next.js sees it.
installRequestContext({
  beforeRequest: (req) => normaliseForwarded(req, env().TRUST_PROXY),
  answerEarly: (req, res) => shedSignIn(req, res),
});

try {
  env();
  agentManifest();
} catch (error) {
  logger.fatal(describeEnvError(error) ?? (error instanceof Error ? error.message : String(error)));
  process.exit(1);
}

await startTelemetry({ runtime: "next", serviceName: "countersign" });

if (serverRunsWorker()) {
  const handle = dbHandle();
  const worker = await startWorker({ client: handle.client, pglite: handle.pglite, url: env().DATABASE_URL });
  setProcessWorker(worker);
  // The approvals waiting and the queue, read at each metrics export, by the processes that work it.
  observeOperations(handle.client);
  // On SIGTERM or SIGINT the worker stops (running jobs finish, for up to 10 s), then a last audit
  // checkpoint is signed (up to 5 s). Next's own handler for these signals, registered before this
  // file runs, closes the HTTP server and then calls process.exit – which would cut both short. So it
  // is taken off and handed the signal once ours is done; requests are served meanwhile. A repeated
  // signal (Ctrl-C reaches this process from the terminal and again from `npm start`) changes nothing;
  // the whole is bounded, so a database that hangs cannot hold the process up.
  let stopping: Promise<void> | undefined;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    const next = process.listeners(signal);
    process.removeAllListeners(signal);
    process.on(signal, () => {
      stopping ??= within(20_000, async () => {
        await worker.stop(10_000).catch((error: unknown) => logger.error(errorFields(error), "Stopping the job worker failed"));
        await signLastCheckpoint(handle.client);
        await stopTelemetry();
      }).finally(() => {
        if (next.length === 0) process.exit(0);
        for (const listener of next) listener.call(process, signal);
      });
    });
  }
} else if (!env().DATABASE_URL) {
  logger.warn("WORKER=off on the embedded database: approved refunds will wait until a server with a worker starts.");
}

/** Runs `task`, giving up on it (with one line) after `ms`. */
async function within(ms: number, task: () => Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      logger.error(`Shutdown: the job worker and the last audit checkpoint took over ${ms / 1000} s; stopping anyway.`);
      resolve();
    }, ms);
  });
  try {
    await Promise.race([task(), late]);
  } finally {
    clearTimeout(timer);
  }
}
