// The integration tests of the executor and the decision, for testing/mutation/stryker.money.config.mjs.
// The two-person rule's tests come along (they start agent runs: the request's starter is excluded);
// the property test and the agent's other end-to-end runs are left out: they reach the same lines
// through the whole loop, for minutes per mutant, without holding any rule of these files more exactly.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import base from "../../vitest.config";

export default defineConfig({
  ...base,
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: {
    ...base.test,
    // One project of its own (the suite's two projects each list their files).
    projects: undefined,
    globalSetup: ["testing/global-setup.ts"],
    // The test files of one mutant's run share a worker and its modules (Stryker switches mutants at
    // run time) instead of importing the app once per file; each file still opens its own database
    // (testing/db.ts), loaded from the run's seeded data directory, and closes it after its last test.
    // Vitest starts a new worker for each run, so a mutant still pays one import of the app.
    isolate: false,
    // Hands the per-test coverage back to Stryker (see the file): each mutant runs only the tests
    // that reach it, and mutants only module-level code reaches are left out (`ignoreStatic`).
    setupFiles: ["testing/mutation/stryker-meta.ts"],
    include: [
      "lib/ledger/execute-approved-refund.integration.test.ts",
      "lib/ledger/execute-lock.integration.test.ts",
      "lib/approvals/decide-approval.integration.test.ts",
      // The two-person rule and a lowered amount, both files' rules (through the agent, for the
      // request's starter, which no other file here sets).
      "lib/approvals/two-person.integration.test.ts",
    ],
  },
});
