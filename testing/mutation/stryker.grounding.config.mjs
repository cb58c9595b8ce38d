// The draft check's readings of a text, held by their unit tests alone: quantities however they are
// written (quantities.ts) and whether the passages answer the ticket's question
// (check-draft-relevance.ts). Apart from the rules run: each is a table of words and phrases in four
// languages read by a small parser, whose every entry a test would have to name to hold the rules
// run's 98; their score is held here, and each file at the floor of scores-by-file.ts.
import { mutationConfig } from "./stryker.base.mjs";

export default mutationConfig({
  name: "grounding",
  mutate: ["lib/evidence/quantities.ts", "lib/evidence/check-draft-relevance.ts"],
  vitestConfig: "testing/mutation/vitest.rules.config.ts",
  timeoutMS: 5000,
  breakAt: 88,
});
