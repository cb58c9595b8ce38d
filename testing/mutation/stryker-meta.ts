// Stryker's Vitest runner (9.5) learns a run's per-test coverage and hit count from the test file's
// meta, which its own setup file sets in an afterAll hook that takes the file's suite as the hook's
// first argument. Since Vitest 4.1 that argument is the fixture context and the suite is the second,
// so the runner learns no coverage: every mutant runs every test of the run, and no mutant is known
// to be static. This hook sets the meta on the suite. Outside Stryker (no namespace) it does nothing.
import { afterAll } from "vitest";

type TStrykerNamespace = { mutantCoverage?: unknown; hitCount?: number };

afterAll(({}, suite) => {
  const stryker = (globalThis as { __stryker__?: TStrykerNamespace }).__stryker__;
  if (!stryker) return;
  Object.assign(suite.meta, { mutantCoverage: stryker.mutantCoverage, hitCount: stryker.hitCount });
});
