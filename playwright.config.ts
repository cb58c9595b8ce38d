import { defineConfig, devices } from "@playwright/test";
import { chromiumPath } from "./testing/chromium";

const PORT = Number(process.env.E2E_PORT ?? 3210);
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
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: [["list"]],
  outputDir: process.env.E2E_PORT ? `test-results/${PORT}` : "test-results",
  use: {
    ...devices["Desktop Chrome"],
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
  webServer: {
    // A fresh database for every run (embedded, or a sibling of DATABASE_URL's), migrated and
    // seeded with the demo data, then the production build from `npm test`'s build step.
    command: `node node_modules/tsx/dist/cli.mjs scripts/e2e-server.ts --port ${PORT}`,
    url: `http://127.0.0.1:${PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "pipe",
    stderr: "pipe",
  },
});
