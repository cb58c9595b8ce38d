import { defineConfig, devices } from "@playwright/test";
import { chromiumPath } from "./testing/chromium";

const PORT = Number(process.env.E2E_PORT ?? 3210);
// Debian's Chromium by default (this project's machines cannot download Playwright's browsers);
// on a machine with Playwright's own browsers, set CHROMIUM_PATH= (empty) to use them.
const executablePath = chromiumPath();

export default defineConfig({
  testDir: "./e2e",
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
