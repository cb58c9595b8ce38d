// The unit tests of the rules Stryker mutates in testing/mutation/stryker.rules.config.mjs.
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
    // Pure functions and no module state: one worker keeps its modules between mutants (Stryker
    // switches mutants at run time), which saves seconds of start-up per mutant.
    isolate: false,
    // Hands the per-test coverage back to Stryker (see the file): each mutant runs only the tests
    // that reach it, and mutants only module-level code reaches are left out (`ignoreStatic`).
    setupFiles: ["testing/mutation/stryker-meta.ts"],
    include: [
      "lib/policy/policy.test.ts",
      "lib/policy/policy-bounds.test.ts",
      "lib/intake/admit-ticket.test.ts",
      "lib/intake/route-signature.test.ts",
      "lib/evidence/check-draft.test.ts",
      "lib/evidence/check-draft-words.test.ts",
      "lib/evidence/check-draft-relevance.test.ts",
      "lib/evidence/quantities.test.ts",
      "lib/agent/validate-decision.test.ts",
      "lib/agent/transitions.test.ts",
    ],
  },
});
