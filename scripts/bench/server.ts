// The production build, served on a free loopback port against the bench database, and the load tool
// (autocannon) pointed at it. The server is started as scripts/e2e-server.ts starts it: `next start`
// from the build directory, with the bench's fixed secrets and a data directory of its own, so it never
// reads or writes the installation's .data.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import autocannon from "autocannon";
import type { TBenchDb } from "./bench-db";
import { BENCH_SECRETS } from "./secrets";

export const DIST = process.env.NEXT_DIST_DIR ?? ".next";

/** Why the HTTP figures cannot be taken, or null when a production build is there. */
export function missingBuild(): string | null {
  return existsSync(join(DIST, "BUILD_ID")) ? null : `no production build in ${DIST}: run npm run build first (or set NEXT_DIST_DIR)`;
}

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

export interface TServer {
  origin: string;
  stop(): Promise<void>;
}

/** `settings`: the server's own on top of the bench's (e.g. TRUST_PROXY). */
export async function startServer(bench: TBenchDb, settings: Record<string, string> = {}): Promise<TServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "countersign-bench-server-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...BENCH_SECRETS,
    ...settings,
    NEXT_TELEMETRY_DISABLED: "1",
    NEXT_DIST_DIR: DIST,
    DATA_DIR: dataDir,
    DEMO_SEED: "false",
    NODE_ENV: "production",
  };
  if (bench.kind === "postgres") {
    env.DATABASE_URL = bench.url;
    // The refund jobs the write path's decisions enqueued must not be worked off during the figures.
    env.WORKER = "off";
  } else {
    delete env.DATABASE_URL;
    env.PGLITE_DATA_DIR = bench.dir;
    env.WORKER = "on"; // the embedded database has its worker in the server (README)
  }
  const child: ChildProcess = spawn(
    process.execPath,
    [resolve("node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"],
    { env, stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const origin = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    // What the server last said (an answer that was not ok, or why there was none), for the error.
    let last = "no answer";
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(`the server exited with ${child.exitCode}: ${stderr.trim().split("\n").slice(-3).join(" / ")}`);
      try {
        const answer = await fetch(`${origin}/api/health`, { signal: AbortSignal.timeout(5_000) });
        if (answer.ok) break;
        last = `${answer.status} ${(await answer.text()).slice(0, 300)}`;
      } catch (error) {
        // not listening yet, or no answer within 5 s
        last = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      }
      if (Date.now() > deadline)
        throw new Error(
          `the server did not answer /api/health within 60 s (last: ${last}; its stderr: ${stderr.trim().split("\n").slice(-3).join(" / ") || "empty"})`,
        );
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { origin, stop };
}

export interface TLoad {
  /** 2xx answers per second over the run. */
  rate: number;
  meanMs: number;
  p99Ms: number;
  /** autocannon reports no 95th percentile; the 97.5th is the nearest above it. */
  p97_5Ms: number;
  requests: number;
}

/** One autocannon run; any non-2xx answer or connection error makes it fail, so no figure counts errors as work. */
export async function load(options: autocannon.Options): Promise<TLoad> {
  const result = await autocannon({ ...options, timeout: 30 });
  if (result.non2xx || result.errors) {
    const codes = Object.entries(result.statusCodeStats ?? {})
      .map(([code, s]) => `${code}×${s.count ?? 0}`)
      .join(", ");
    throw new Error(`${options.url}: ${result.non2xx} non-2xx answers (${codes}), ${result.errors} errors`);
  }
  return {
    rate: result["2xx"] / result.duration,
    meanMs: result.latency.mean,
    p99Ms: result.latency.p99,
    p97_5Ms: result.latency.p97_5,
    requests: result["2xx"],
  };
}

export { signIn } from "../../testing/sign-in";
