// The pure rules, held by their unit tests alone. The integration tests also reach these files
// (every agent run admits, validates, checks transitions and drafts), but at seconds per mutant;
// a rule that only an end-to-end run notices is not held by its own tests.
import { mutationConfig } from "./stryker.base.mjs";

export default mutationConfig({
  name: "rules",
  mutate: [
    "lib/policy/evaluate-action.ts",
    "lib/policy/evaluate-refund.ts",
    "lib/intake/admit-ticket.ts",
    "lib/intake/route-signature.ts",
    "lib/evidence/check-draft.ts",
    "lib/evidence/order-terms.ts",
    "lib/evidence/words.ts",
    "lib/agent/validate-decision.ts",
    "lib/agent/transitions.ts",
  ],
  vitestConfig: "testing/mutation/vitest.rules.config.ts",
  timeoutMS: 5000,
  breakAt: 98,
});
