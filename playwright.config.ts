import { defineConfig, devices } from "@playwright/test";
import { chromiumPath } from "./testing/chromium";
import { E2E_SHARD_STRIDE, e2eBasePort, e2eServerArgs } from "./testing/e2e-data-dir";

const PORT = e2eBasePort();
// Shards: each Playwright worker drives a server and a database of its own (testing/e2e-data-dir.ts),
// its spec files given to it whole and run in order; E2E_WORKERS=1 runs the suite on one server.
const SHARDS = Math.max(1, Number(process.env.E2E_WORKERS ?? 2));
// Debian's Chromium by default (this project's machines cannot download Playwright's browsers);
// on a machine with Playwright's own browsers, set CHROMIUM_PATH= (empty) to use them.
const executablePath = chromiumPath();
// What a browser is shown and told, whichever database served the data: axe and sideways scroll on
// every page, layouts at every width, security headers, request ids. CI runs them on its first
// database only (`npm test -- --database-only` sets E2E_DATABASE_ONLY).
const SAME_ON_ANY_DATABASE = ["accessibility.spec.ts", "layout.spec.ts", "security-headers.spec.ts", "request-id.spec.ts"];

export default defineConfig({
  testDir: "./e2e",
  testIgnore: process.env.E2E_DATABASE_ONLY ? SAME_ON_ANY_DATABASE : [],
  timeout: 30_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: SHARDS,
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: [["list"]],
  outputDir: process.env.E2E_PORT ? `test-results/${PORT}` : "test-results",
  use: {
    ...devices["Desktop Chrome"],
    // Each worker's own server: the `baseURL` fixture in e2e/fixtures.ts.
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      ...(executablePath ? { executablePath } : {}),
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  // Per shard, a fresh database for the run (embedded, or a sibling of DATABASE_URL's), migrated and
  // seeded with the demo data, then the production build from `npm test`'s build step.
  webServer: Array.from({ length: SHARDS }, (_, shard) => {
    const port = PORT + E2E_SHARD_STRIDE * shard;
    return {
      // One process in place of the shell (no tsx launcher between), which stops itself if the runner
      // is killed outright (testing/exit-with-parent.cjs), and its `next start` with it.
      command: `exec node ${e2eServerArgs(port).join(" ")}`,
      url: `http://127.0.0.1:${port}/api/health`,
      reuseExistingServer: false,
      // The shards migrate and seed at the same time.
      timeout: 300_000,
      stdout: "pipe" as const,
      stderr: "pipe" as const,
    };
  }),
});
