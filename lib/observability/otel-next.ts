// The server's OpenTelemetry: @vercel/otel, which makes Next.js's own spans real (one per request,
// with its route and status), plus Prisma's spans, the log context's ids on every span, and the
// metrics reader. Loaded only through telemetry.ts, behind OTEL_EXPORTER_OTLP_ENDPOINT.
import { PrismaInstrumentation } from "@prisma/instrumentation";
import { registerOTel } from "@vercel/otel";
import { ContextSpanProcessor, flushGlobalProviders, globalProviders, metricReader, otlpProtocol } from "./otel-common";
import { REQUEST_ID_HEADER } from "./request-id";

export async function startOtel(serviceName: string) {
  otlpProtocol("TRACES"); // says once when the configured protocol is not OTLP over HTTP
  registerOTel({
    serviceName,
    // "auto": the OTLP exporter for OTEL_EXPORTER_OTLP_ENDPOINT, and outgoing fetch (the model's endpoint).
    spanProcessors: ["auto", new ContextSpanProcessor()],
    instrumentations: ["auto", new PrismaInstrumentation()],
    metricReaders: [metricReader()],
    // The request's root span: the id that its log lines and its response carry (http-requests.ts).
    attributesFromHeaders: { "countersign.request_id": REQUEST_ID_HEADER },
  });
  return {
    flush: flushGlobalProviders,
    shutdown: async () => void (await Promise.all(globalProviders().map((p) => p.shutdown?.()))),
  };
}
