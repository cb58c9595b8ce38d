// OpenTelemetry for a process, only when OTEL_EXPORTER_OTLP_ENDPOINT is set. Without it, nothing of
// an OpenTelemetry SDK is loaded: the SDK modules are imported dynamically below, behind the check,
// and the rest of the app talks to @opentelemetry/api alone, whose calls are then no-ops.
//   next   the server: @vercel/otel (instrumentation.ts), with Next.js's own span per request
//   node   the job worker, the command-line scripts and chaos: the OpenTelemetry Node SDK
// Both export traces and metrics over OTLP/HTTP to the endpoint (protobuf, or JSON with
// OTEL_EXPORTER_OTLP_PROTOCOL=http/json), with Prisma's spans and the ids of the log context
// (context.ts) on every span.
import { logger } from "./logger";

export type TTelemetryRuntime = "next" | "node";

interface TStarted {
  runtime: TTelemetryRuntime;
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

const g = globalThis as unknown as { __countersignTelemetry?: Promise<TStarted | null> };

/** The OTLP endpoint traces and metrics go to, or undefined: then nothing is exported, or loaded. */
export function telemetryEndpoint(): string | undefined {
  const endpoint = process.env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  return endpoint ? endpoint : undefined;
}

/**
 * Starts OpenTelemetry in this process when the endpoint is set; once per process, whoever asks
 * again gets the first answer. `serviceName` is the default; OTEL_SERVICE_NAME overrides it.
 */
export function startTelemetry(options: { runtime: TTelemetryRuntime; serviceName: string }): Promise<boolean> {
  g.__countersignTelemetry ??= (async (): Promise<TStarted | null> => {
    const endpoint = telemetryEndpoint();
    if (!endpoint) return null;
    const serviceName = process.env.OTEL_SERVICE_NAME?.trim() || options.serviceName;
    const sdk = options.runtime === "next" ? await import("./otel-next") : await import("./otel-node");
    const started = await sdk.startOtel(serviceName);
    logger.info({ endpoint, serviceName, runtime: options.runtime }, "telemetry: exporting traces and metrics over OTLP/HTTP");
    return { runtime: options.runtime, ...started };
  })();
  return g.__countersignTelemetry.then((started) => started !== null);
}

/** Whether an SDK was started in this process (meters and tracers made before it are no-ops for good). */
export async function telemetryStarted(): Promise<boolean> {
  return (await g.__countersignTelemetry) != null;
}

/** Exports what is buffered now: before a process exits, or a test reads the receiver. */
export async function flushTelemetry(): Promise<void> {
  const started = await g.__countersignTelemetry;
  if (started) await started.flush();
}

/** Flushes and stops the SDK (a script at its end; the worker at shutdown). Bounded by the exporters' own timeouts. */
export async function stopTelemetry(): Promise<void> {
  const started = await g.__countersignTelemetry;
  if (!started) return;
  await started.shutdown().catch((error: unknown) => logger.warn({ err: error }, "telemetry: shutdown failed"));
}
