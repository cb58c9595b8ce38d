// Where the browser suite's servers listen and keep their data (scripts/e2e-server.ts).
//
// The suite runs in shards: Playwright worker i drives a server of its own on E2E_PORT + 10 × i, with
// its own database, so specs that change settings, sign people out or count rows never meet another
// worker's. Each server's neighbours sit on the ports after it, inside its stride of 10: its fake
// Stripe (+1), its OpenID Connect provider (+2), and a spec's second server (+3) with its own (+4, +5).
export const E2E_DEFAULT_PORT = "3210";
export const E2E_SHARD_STRIDE = 10;

/** The first shard's port: E2E_PORT, or 3210. */
export function e2eBasePort(): number {
  return Number(process.env.E2E_PORT ?? E2E_DEFAULT_PORT);
}

/** The port of the server this Playwright worker drives (Playwright numbers its workers in TEST_PARALLEL_INDEX). */
export function e2ePort(): number {
  return e2eBasePort() + E2E_SHARD_STRIDE * Number(process.env.TEST_PARALLEL_INDEX ?? 0);
}

/** A server's data directory, relative to the project: .data/e2e on the default port, .data/e2e-<port> on another. */
export function e2eDataDir(port: string = String(e2ePort())): string {
  return port === E2E_DEFAULT_PORT ? ".data/e2e" : `.data/e2e-${port}`;
}

/** Preloaded into each server the browser suite starts, which then stops when its starter is gone. */
export const EXIT_WITH_PARENT = "./testing/exit-with-parent.cjs";

/** How node starts the suite's server on `port`: one process, tsx as a loader (playwright.config.ts, e2e/live-run.spec.ts). */
export function e2eServerArgs(port: number | string): string[] {
  return ["--require", EXIT_WITH_PARENT, "--import", "tsx", "scripts/e2e-server.ts", "--port", String(port)];
}
