import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";
import IntegrationFirst from "./testing/sequencer";

const root = fileURLToPath(new URL(".", import.meta.url));
// One test file per core, and at least two: Vitest's own default (one fewer worker than cores) is a
// single worker on a two-core machine, which runs the files one after another. The main process
// only collects results; the files spend much of their time waiting on a database or a child
// process. TEST_WORKERS overrides it (1 runs the files one at a time).
const workers = Number(process.env.TEST_WORKERS) || Math.max(2, availableParallelism());

// Integration files whose outcome is the same on either database, left out of CI's second run
// (`npm test -- --database-only` sets TEST_DATABASE_ONLY): they grade on, or test, an embedded
// database of their own whatever DATABASE_URL says, or (the property test) hold the runtime itself,
// whose writes the other integration files hold on PostgreSQL.
export const SAME_ON_ANY_DATABASE = [
  // The property test: 10,000 planner decisions through the runtime; minutes on PostgreSQL for no rule of SQL.
  "lib/agent/run-agent.property.integration.test.ts",
  // Grading always runs on in-memory PGlite databases of its own (lib/eval/episode-images.ts).
  "lib/eval/grade-workers.integration.test.ts",
  "lib/eval/grade-episodes.integration.test.ts",
  "lib/eval/grade-approvals.integration.test.ts",
  "lib/eval/retrieval.integration.test.ts",
  "lib/eval/shipped-dataset.integration.test.ts",
  // The embedded database itself: its prepared statements, its data directory, its migrations replayed.
  "lib/db/pglite-prepared.integration.test.ts",
  "lib/db/schema-drift.integration.test.ts",
  "lib/db/data-dir-lock.integration.test.ts",
  "lib/db/data-dir-modes.integration.test.ts",
  "scripts/eval-through-server.integration.test.ts",
];

const TEST_ROOTS = ["lib", "components", "app", "scripts", "testing", "prisma"];
// Unit files that mock a module (next-auth/jwt) or fake the clock: in a shared module graph the
// mock could reach, or miss, another file.
const ISOLATED_UNIT_FILES = ["lib/auth/session-token.test.ts", "lib/auth/session-cookie.test.ts"];

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@\/(.*)$/, replacement: `${root}$1` },
      // Marks modules that must never reach a client bundle; it means nothing under Node.
      { find: "server-only", replacement: `${root}testing/empty.ts` },
    ],
  },
  test: {
    exclude: [...configDefaults.exclude, ...(process.env.TEST_DATABASE_ONLY ? SAME_ON_ANY_DATABASE : [])],
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
    projects: [
      // The unit files share their worker's modules (`isolate: false`): importing the app, Prisma's
      // client and the rest once per worker rather than once per file takes minutes off a run. They
      // read no database and keep no state between files; the two that replace a module or the
      // clock for their own tests stay isolated, with the integration files.
      {
        extends: true,
        test: {
          name: "unit",
          include: TEST_ROOTS.map((dir) => `${dir}/**/*.test.ts`),
          exclude: ["**/*.integration.test.ts", ...ISOLATED_UNIT_FILES],
          isolate: false,
        },
      },
      // Each integration file in a module graph of its own: many keep a database, a server or a
      // worker in module state, or set the environment, for the whole file.
      {
        extends: true,
        test: {
          name: "integration",
          include: [...TEST_ROOTS.map((dir) => `${dir}/**/*.integration.test.ts`), ...ISOLATED_UNIT_FILES],
          globalSetup: ["testing/global-setup.ts"],
        },
      },
    ],
  },
});
