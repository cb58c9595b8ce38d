// The executor and the decision, held by their integration tests on PGlite (each test file loads
// a migrated database: lib/db/migrated-template.ts). The order's FOR UPDATE sits in a migration's
// function (countersign_write_refund), out of Stryker's reach; it is held by a PostgreSQL race instead
// (lib/ledger/execute-lock.integration.test.ts, skipped here).
import { mutationConfig } from "./stryker.base.mjs";

export default mutationConfig({
  name: "money",
  mutate: ["lib/ledger/execute-approved-refund.ts", "lib/approvals/decide-approval.ts"],
  vitestConfig: "testing/mutation/vitest.money.config.ts",
  timeoutMS: 30000,
  breakAt: 96,
});
