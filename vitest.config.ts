import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));

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
