// The integration tests of the executor and the decision, for testing/mutation/stryker.money.config.mjs.
// The property test and the agent's end-to-end runs are left out: they reach the same lines through
// the whole loop, for minutes per mutant, without holding any rule of these files more exactly.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import base from "../../vitest.config";

export default defineConfig({
  ...base,
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: {
    ...base.test,
    include: ["lib/ledger/execute-approved-refund.integration.test.ts", "lib/ledger/execute-lock.integration.test.ts", "lib/approvals/decide-approval.integration.test.ts"],
  },
});
