// A local OTLP/HTTP receiver for tests: what a collector would be sent, on loopback. It takes JSON
// (OTEL_EXPORTER_OTLP_PROTOCOL=http/json) on /v1/traces and /v1/metrics and keeps every span and
// every metric data point, flattened; anything else is answered 415 and recorded as refused, so a
// test that gets nothing can tell why.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

type TValue = string | number | boolean | null;

export interface TReceivedSpan {
  service: string;
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  startNs: bigint;
  endNs: bigint;
  status: { code?: number; message?: string };
  attributes: Record<string, TValue>;
}

export interface TReceivedPoint {
  service: string;
  metric: string;
  value: number;
  attributes: Record<string, TValue>;
}

export interface TOtlpReceiver {
  /** The base URL, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  spans: TReceivedSpan[];
  points: TReceivedPoint[];
  refused: string[];
  close(): Promise<void>;
}

type TOtlpAttribute = { key: string; value: Record<string, unknown> };

function valueOf(v: Record<string, unknown> | undefined): TValue {
  if (!v) return null;
  if ("stringValue" in v) return String(v.stringValue);
  if ("intValue" in v) return Number(v.intValue);
  if ("doubleValue" in v) return Number(v.doubleValue);
  if ("boolValue" in v) return Boolean(v.boolValue);
  return JSON.stringify(v);
}

const attributesOf = (list: TOtlpAttribute[] | undefined): Record<string, TValue> =>
  Object.fromEntries((list ?? []).map((a) => [a.key, valueOf(a.value)]));

// The JSON exporter writes ids as hex; a base64 id (the protobuf JSON mapping) is turned into hex too.
const hexId = (id: unknown): string =>
  typeof id !== "string" || id === "" ? "" : /^[0-9a-f]+$/i.test(id) ? id.toLowerCase() : Buffer.from(id, "base64").toString("hex");

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (c: Buffer) => chunks.push(c));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

export async function startOtlpReceiver(): Promise<TOtlpReceiver> {
  const spans: TReceivedSpan[] = [];
  const points: TReceivedPoint[] = [];
  const refused: string[] = [];
  const server = createServer(async (request, response) => {
    const body = await readBody(request);
    const type = request.headers["content-type"] ?? "";
    if (request.method !== "POST" || !type.includes("application/json")) {
      refused.push(`${request.method} ${request.url} ${type}`);
      response.writeHead(415).end();
      return;
    }
    const payload = JSON.parse(body) as Record<string, unknown[]>;
    if (request.url === "/v1/traces") {
      for (const rs of (payload.resourceSpans ?? []) as {
        resource?: { attributes?: TOtlpAttribute[] };
        scopeSpans?: { spans?: Record<string, unknown>[] }[];
      }[]) {
        const service = String(attributesOf(rs.resource?.attributes)["service.name"] ?? "");
        for (const ss of rs.scopeSpans ?? []) {
          for (const s of ss.spans ?? []) {
            spans.push({
              service,
              name: String(s.name),
              kind: Number(s.kind),
              traceId: hexId(s.traceId),
              spanId: hexId(s.spanId),
              parentSpanId: hexId(s.parentSpanId),
              startNs: BigInt(String(s.startTimeUnixNano)),
              endNs: BigInt(String(s.endTimeUnixNano)),
              status: (s.status ?? {}) as TReceivedSpan["status"],
              attributes: attributesOf(s.attributes as TOtlpAttribute[]),
            });
          }
        }
      }
    } else if (request.url === "/v1/metrics") {
      for (const rm of (payload.resourceMetrics ?? []) as {
        resource?: { attributes?: TOtlpAttribute[] };
        scopeMetrics?: { metrics?: Record<string, unknown>[] }[];
      }[]) {
        const service = String(attributesOf(rm.resource?.attributes)["service.name"] ?? "");
        for (const sm of rm.scopeMetrics ?? []) {
          for (const m of sm.metrics ?? []) {
            const data = (m.gauge ?? m.sum ?? m.histogram) as { dataPoints?: Record<string, unknown>[] } | undefined;
            for (const p of data?.dataPoints ?? []) {
              points.push({
                service,
                metric: String(m.name),
                value: Number(p.asInt ?? p.asDouble ?? p.sum ?? 0),
                attributes: attributesOf(p.attributes as TOtlpAttribute[]),
              });
            }
          }
        }
      }
    } else {
      refused.push(`${request.method} ${request.url}`);
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    points,
    refused,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
