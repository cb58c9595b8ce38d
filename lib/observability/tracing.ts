// Spans through @opentelemetry/api alone: without a registered SDK (telemetry.ts starts one only when
// OTEL_EXPORTER_OTLP_ENDPOINT is set) every call here is a no-op that costs next to nothing.
import {
  context,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
} from "@opentelemetry/api";

export { SpanKind, type Attributes, type Span };

export const tracer = trace.getTracer("countersign");

/** The span being recorded now, if any: to add what only the work itself learns (an outcome). */
export function activeSpan(): Span | undefined {
  return trace.getActiveSpan();
}

/** Marks a span failed with the error, as an exception event and an error status. */
export function recordFailure(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : new Error(String(error)));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/**
 * Runs `fn` in a span of its own (a child of the active one, or of `parent`), ending it when `fn`
 * settles; a throw marks it failed and is re-thrown unchanged.
 */
export async function inSpan<T>(
  name: string,
  options: { attributes?: Attributes; kind?: SpanKind; parent?: Context; links?: Link[] },
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  return tracer.startActiveSpan(
    name,
    { attributes: options.attributes, kind: options.kind, links: options.links },
    options.parent ?? context.active(),
    async (span) => {
      try {
        return await fn(span);
      } catch (error) {
        recordFailure(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/**
 * A span for work that already happened, from its start to now (or `end`): an agent step, timed by
 * its own clock and recorded once it is over. A child of the active span.
 */
export function recordSpan(name: string, options: { startTime: Date; endTime?: Date; attributes: Attributes; failed?: string }): void {
  const span = tracer.startSpan(name, { startTime: options.startTime, attributes: options.attributes });
  if (options.failed) span.setStatus({ code: SpanStatusCode.ERROR, message: options.failed });
  span.end(options.endTime ?? new Date());
}

/** The active trace as W3C `traceparent` (and `tracestate`), to send along with work done elsewhere: a job. Empty when nothing is traced. */
export function traceCarrier(): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

/** The context a carrier from traceCarrier continues (the active one when it carries nothing). */
export function contextFromCarrier(carrier: unknown): Context {
  if (!carrier || typeof carrier !== "object") return context.active();
  return propagation.extract(context.active(), carrier as Record<string, unknown>, {
    keys: (c) => Object.keys(c),
    get: (c, key) => (typeof c[key] === "string" ? (c[key] as string) : undefined),
  });
}
