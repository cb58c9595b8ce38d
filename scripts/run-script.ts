// The shared ending of every command in scripts/: run main, close the database (an open PGlite keeps
// the process alive), exit with main's code; on an error print one line a person can act on.
// With OTEL_EXPORTER_OTLP_ENDPOINT set, the command is traced with the OpenTelemetry Node SDK (as
// the server is with @vercel/otel): main runs in one span, unless `span: false` (the worker, whose
// jobs are spans of their own), and what is buffered is exported before the process exits.
import { basename } from "node:path";
import { closeDb, describeDbError } from "../lib/db";
import { isAppError } from "../lib/contracts/app-error";
import { describeEnvError } from "../lib/env";
import { inSpan } from "../lib/observability/tracing";
import { startTelemetry, stopTelemetry } from "../lib/observability/telemetry";

/** The command's name, from its file: `agent` for scripts/agent.ts. */
export function scriptName(): string {
  return basename(process.argv[1] ?? "script").replace(/\.[cm]?[jt]s$/, "");
}

/** An option the command does not know, or a value it cannot take (node:util parseArgs). */
function isArgumentError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("ERR_PARSE_ARGS_");
}

export function runScript(
  main: () => Promise<number>,
  describe: (error: unknown) => string | undefined = () => undefined,
  options: { span?: boolean } = {},
): void {
  const name = scriptName();
  // A main that throws before its first await is handled like one that rejects.
  Promise.resolve()
    .then(() => startTelemetry({ runtime: "node", serviceName: name === "worker" ? "countersign-worker" : `countersign-${name}` }))
    .then(() => (options.span === false ? main() : inSpan(`script ${name}`, {}, main)))
    .then(async (code) => {
      await closeDb();
      await stopTelemetry();
      process.exit(code);
    })
    .catch(async (error) => {
      // Expected refusals (an AppError, an unknown option, a data directory in use, a database not
      // migrated) are one line for a person; anything else keeps its stack.
      const expected = isAppError(error) || isArgumentError(error) ? (error as Error).message : describeDbError(error);
      console.error(describe(error) ?? expected ?? describeEnvError(error) ?? error);
      await closeDb().catch(() => {});
      await stopTelemetry();
      process.exit(2);
    });
}
