import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import IntegrationFirst from "./testing/sequencer";

const root = fileURLToPath(new URL(".", import.meta.url));
// One test file per core, and at least two: Vitest's own default (one fewer worker than cores) is a
// single worker on a two-core machine, which runs the files one after another. The main process
// only collects results; the files spend much of their time waiting on a database or a child
// process. TEST_WORKERS overrides it (1 runs the files one at a time).
const workers = Number(process.env.TEST_WORKERS) || Math.max(2, availableParallelism());

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@\/(.*)$/, replacement: `${root}$1` },
      // Marks modules that must never reach a client bundle; it means nothing under Node.
      { find: "server-only", replacement: `${root}testing/empty.ts` },
    ],
  },
  test: {
    include: [
      "lib/**/*.test.ts",
      "components/**/*.test.ts",
      "app/**/*.test.ts",
      "scripts/**/*.test.ts",
      "testing/**/*.test.ts",
      "prisma/**/*.test.ts",
    ],
    globalSetup: ["testing/global-setup.ts"],
    pool: "forks",
    maxWorkers: workers,
    // Each worker's DATA_DIR of its own (under the one below).
    setupFiles: ["testing/worker-data-dir.ts"],
    sequence: { sequencer: IntegrationFirst },
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Tests never read or write the app's own data directory or secrets.
    env: {
      NEXT_TELEMETRY_DISABLED: "1",
      DATA_DIR: `${root}.data/vitest`,
      AUTH_SECRET: "vitest-auth-secret-0123456789abcdef0123",
      INTAKE_BUNDLE_KEY: "vitest-bundle-key-0123456789abcdef0123",
      INTAKE_SECRET: "vitest-intake-secret-0123456789abcdef01",
      SETTINGS_KEY: "vitest-settings-key-0123456789abcdef0123",
      // The JSON log lines would interleave with the reporter's; the tests of the logs read their own.
      LOG_LEVEL: "silent",
    },
  },
});
