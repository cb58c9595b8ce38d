// Child process for lib/observability/no-sdk.test.ts: sets up a process the way the server or a
// script does, then prints (one JSON line on stdout) which OpenTelemetry SDK packages it loaded.
//   server   instrumentation.ts's register(), as Next.js calls it (NEXT_RUNTIME=nodejs; WORKER=off)
//   script   scripts/run-script.ts's runScript, as the worker and every command start
// It sees ES modules through a resolve hook (module.register) and CommonJS ones in require.cache, so
// a package counts whichever way it was loaded.
import { createRequire, register } from "node:module";
import { MessageChannel } from "node:worker_threads";

const SDK_PACKAGE =
  /node_modules\/(@opentelemetry\/(?:sdk-[^/]+|exporter-[^/]+|instrumentation|context-async-hooks|otlp-[^/]+)|@vercel\/otel|@prisma\/instrumentation)\//;
const MARKER = "data:text/javascript,export default 'countersign-marker'";

const seen = new Set<string>();
const { port1, port2 } = new MessageChannel();
const hooks = `
let port;
export function initialize(data) { port = data.port; }
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  port.postMessage(resolved.url);
  return resolved;
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`, { data: { port: port2 }, transferList: [port2] });

/** Every module resolved so far: the hook's messages arrive in order, so once the marker is in, all earlier ones are. */
async function loaded(): Promise<string[]> {
  const markerSeen = new Promise<void>((resolve) => {
    port1.on("message", (url: string) => {
      seen.add(url);
      if (url === MARKER) resolve();
    });
  });
  await import(MARKER);
  await markerSeen;
  port1.close();
  const cjs = Object.keys(createRequire(import.meta.url).cache);
  const packages = [...seen, ...cjs].map((p) => decodeURIComponent(p).match(SDK_PACKAGE)?.[1]).filter((p): p is string => !!p);
  return [...new Set(packages)].sort();
}

function report(packages: string[]): void {
  process.stdout.write(`${JSON.stringify({ sdkPackages: packages })}\n`);
}

const mode = process.argv[2];
if (mode === "server") {
  const { register: registerServer } = await import("../instrumentation");
  await registerServer();
  report(await loaded());
  process.exit(0);
} else if (mode === "script") {
  const { runScript } = await import("../scripts/run-script");
  runScript(async () => {
    report(await loaded());
    return 0;
  });
} else {
  process.stderr.write("usage: otel-modules-loaded.ts server|script\n");
  process.exit(2);
}
