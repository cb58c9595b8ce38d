// The per-file floor of `npm run test:mutation`: a file is scored on its own, with Stryker's rule for
// what counts.
import { describe, expect, it } from "vitest";
import { scoresByFile } from "./scores-by-file";

const mutants = (counts: Record<string, number>) =>
  Object.entries(counts).flatMap(([status, n]) => Array.from({ length: n }, () => ({ status })));

describe("scoresByFile", () => {
  it("counts killed and timed-out mutants against survivors and uncovered ones, never ignored ones or errors", () => {
    const report = {
      projectRoot: "/repo",
      files: {
        "/repo/lib/a.ts": { mutants: mutants({ Killed: 15, Timeout: 2, Survived: 2, NoCoverage: 1, Ignored: 40, CompileError: 3 }) },
        "/repo/lib/b.ts": { mutants: mutants({ Killed: 1, Survived: 3 }) },
        "/repo/lib/c.ts": { mutants: mutants({ Ignored: 2 }) },
      },
    };
    expect(scoresByFile(report)).toEqual([
      { file: "lib/a.ts", detected: 17, undetected: 3, score: 85 },
      { file: "lib/b.ts", detected: 1, undetected: 3, score: 25 },
      { file: "lib/c.ts", detected: 0, undetected: 0, score: 100 },
    ]);
  });
});
