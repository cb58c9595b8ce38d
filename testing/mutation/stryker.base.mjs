// What the two mutation runs share (`npm run test:mutation`; not part of `npm test`). Stryker
// changes one thing at a time in the files a run mutates (a condition, a comparison, a string) and
// runs the tests that reach that line; a change no test notices is a rule no test holds. A run fails
// below its `thresholds.break`. docs/testing.md, "Mutation testing", has the scores and the time.
/** @param {{ name: string, mutate: string[], vitestConfig: string, timeoutMS: number, breakAt: number }} part */
export function mutationConfig(part) {
  /** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
  const config = {
    testRunner: "vitest",
    vitest: { configFile: part.vitestConfig, related: false },
    plugins: ["@stryker-mutator/vitest-runner"],
    mutate: part.mutate,
    coverageAnalysis: "perTest",
    // A mutant in a module-level constant (the executor's SQL, the lists of codes) is "static":
    // every test would run for it. Those constants are exercised by every test of the file.
    ignoreStatic: true,
    incremental: true,
    incrementalFile: `reports/mutation/${part.name}-incremental.json`,
    concurrency: 2,
    timeoutMS: part.timeoutMS,
    reporters: ["clear-text", "progress", "html", "json"],
    htmlReporter: { fileName: `reports/mutation/${part.name}.html` },
    jsonReporter: { fileName: `reports/mutation/${part.name}.json` },
    tempDirName: ".stryker-tmp",
    cleanTempDir: "always",
    thresholds: { high: 90, low: 85, break: part.breakAt },
  };
  return config;
}
