// OpenTelemetry for the processes outside Next.js – the job worker, the command-line scripts, chaos –
// with the OpenTelemetry Node SDK, configured as the server's is: OTLP over HTTP, Prisma's spans, the
// log context's ids on every span, the metrics reader. Loaded only through telemetry.ts, behind
// OTEL_EXPORTER_OTLP_ENDPOINT.
import { OTLPTraceExporter as OTLPTraceJsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as OTLPTraceProtoExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { NodeSDK } from "@opentelemetry/sdk-node";
import { BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { PrismaInstrumentation } from "@prisma/instrumentation";
import { ContextSpanProcessor, flushGlobalProviders, metricReader, otlpProtocol } from "./otel-common";

export async function startOtel(serviceName: string) {
  const exporter = otlpProtocol("TRACES") === "http/json" ? new OTLPTraceJsonExporter() : new OTLPTraceProtoExporter();
  const sdk = new NodeSDK({
    serviceName,
    spanProcessors: [new ContextSpanProcessor(), new BatchSpanProcessor(exporter)],
    metricReaders: [metricReader()],
    // The app's logs are JSON lines on standard output, not OpenTelemetry log records.
    logRecordProcessors: [],
    instrumentations: [new PrismaInstrumentation()],
  });
  sdk.start();
  return { flush: flushGlobalProviders, shutdown: () => sdk.shutdown() };
}
