// Without OTEL_EXPORTER_OTLP_ENDPOINT no OpenTelemetry SDK module is loaded – not by the server's
// instrumentation, not by the worker's and the scripts' set-up – only @opentelemetry/api, whose calls
// are then no-ops. Each case is a fresh process (testing/otel-modules-loaded.ts) that reports every
// SDK package it loaded, as an ES module or through require; the same processes with the endpoint
// set show that the report sees them when they are there.
import { describe, expect, it } from "vitest";
import { spawnTs } from "../../testing/spawn-ts";

async function sdkPackagesLoaded(mode: "server" | "script", endpoint?: string): Promise<string[]> {
  const env: Record<string, string> = {
    NEXT_RUNTIME: "nodejs",
    WORKER: "off",
    LOG_LEVEL: "silent",
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint ?? "",
  };
  const child = spawnTs("testing/otel-modules-loaded.ts", [mode], env);
  let out = "";
  child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  expect(code, out).toBe(0);
  const line = out.split("\n").find((l) => l.startsWith('{"sdkPackages"'));
  expect(line, `no report in: ${out}`).toBeDefined();
  return (JSON.parse(line!) as { sdkPackages: string[] }).sdkPackages;
}

// Nothing listens there: the exporters are made, never reached.
const UNUSED_ENDPOINT = "http://127.0.0.1:9";

describe("no OpenTelemetry SDK without an endpoint", () => {
  it("the server's instrumentation (instrumentation.ts) loads none", async () => {
    expect(await sdkPackagesLoaded("server")).toEqual([]);
  });

  it("the worker's and the scripts' set-up (runScript) loads none", async () => {
    expect(await sdkPackagesLoaded("script")).toEqual([]);
  });

  it("with the endpoint set, the server loads @vercel/otel and the scripts the Node SDK, and the report sees them", async () => {
    expect(await sdkPackagesLoaded("server", UNUSED_ENDPOINT)).toEqual(
      expect.arrayContaining(["@vercel/otel", "@prisma/instrumentation", "@opentelemetry/sdk-metrics"]),
    );
    expect(await sdkPackagesLoaded("script", UNUSED_ENDPOINT)).toEqual(
      expect.arrayContaining([
        "@opentelemetry/sdk-node",
        "@opentelemetry/sdk-trace-base",
        "@opentelemetry/exporter-trace-otlp-proto",
        "@prisma/instrumentation",
      ]),
    );
  });
});
