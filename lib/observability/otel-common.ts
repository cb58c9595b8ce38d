// What the server's SDK (otel-next.ts) and the other processes' (otel-node.ts) share. Loaded only
// through telemetry.ts, behind OTEL_EXPORTER_OTLP_ENDPOINT: this module loads SDK code.
import { metrics, trace, type Context } from "@opentelemetry/api";
import { OTLPMetricExporter as OTLPMetricJsonExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { OTLPMetricExporter as OTLPMetricProtoExporter } from "@opentelemetry/exporter-metrics-otlp-proto";
import { PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import type { ReadableSpan, Span, SpanProcessor } from "@opentelemetry/sdk-trace-base";
import { currentContext, type TLogContext } from "./context";
import { logger } from "./logger";

export type TOtlpProtocol = "http/json" | "http/protobuf";

/** OTLP over HTTP only: protobuf unless the signal's or the general protocol variable says JSON. */
export function otlpProtocol(signal: "TRACES" | "METRICS"): TOtlpProtocol {
  const configured = (
    process.env[`OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`] ??
    process.env.OTEL_EXPORTER_OTLP_PROTOCOL ??
    "http/protobuf"
  ).trim();
  if (configured === "http/json" || configured === "http/protobuf") return configured;
  logger.warn({ protocol: configured }, "telemetry: only OTLP over HTTP is supported; using http/protobuf");
  return "http/protobuf";
}

/** Metrics to the endpoint every OTEL_METRIC_EXPORT_INTERVAL ms (60 s by default). */
export function metricReader(): PeriodicExportingMetricReader {
  const interval = Number(process.env.OTEL_METRIC_EXPORT_INTERVAL);
  const exporter = otlpProtocol("METRICS") === "http/json" ? new OTLPMetricJsonExporter() : new OTLPMetricProtoExporter();
  return new PeriodicExportingMetricReader({
    exporter,
    exportIntervalMillis: Number.isInteger(interval) && interval > 0 ? interval : 60_000,
  });
}

const SPAN_ATTRIBUTES: Record<keyof TLogContext, string> = {
  requestId: "countersign.request_id",
  userId: "countersign.user_id",
  ticketId: "countersign.ticket_id",
  runId: "countersign.run_id",
  approvalId: "countersign.approval_id",
  jobId: "countersign.job_id",
  queue: "countersign.queue",
};

/** Every span started inside a unit of work carries its ids, as its log lines do. */
export class ContextSpanProcessor implements SpanProcessor {
  onStart(span: Span, _parentContext: Context): void {
    for (const [key, value] of Object.entries(currentContext())) {
      const attribute = SPAN_ATTRIBUTES[key as keyof TLogContext];
      if (attribute && value) span.setAttribute(attribute, value);
    }
  }
  onEnd(_span: ReadableSpan): void {}
  async forceFlush(): Promise<void> {}
  async shutdown(): Promise<void> {}
}

type TProvider = { forceFlush?: () => Promise<void>; shutdown?: () => Promise<void> };

/** The registered tracer and meter providers, whichever SDK registered them (@vercel/otel keeps its handle to itself). */
export function globalProviders(): TProvider[] {
  const proxy = trace.getTracerProvider() as TProvider & { getDelegate?: () => TProvider };
  return [proxy.getDelegate?.() ?? proxy, metrics.getMeterProvider() as TProvider];
}

/** Exports what the registered providers hold now. */
export async function flushGlobalProviders(): Promise<void> {
  await Promise.all(globalProviders().map((p) => p.forceFlush?.()));
}
