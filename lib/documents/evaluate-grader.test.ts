// The grading process as the job starts it: a failure to start or to answer in time is a rejection
// that says why, never a job that waits forever.
import { describe, expect, it } from "vitest";
import type { TGradingRequest } from "../contracts/policy-evaluation";
import { processGrader } from "./evaluate-grader";

const EMPTY: TGradingRequest = { before: { hash: "a", versions: [] }, after: { hash: "b", versions: [] }, renamed: null };

describe("processGrader", () => {
  it("rejects, with the process's last words, when the script cannot run", async () => {
    const grade = processGrader({ script: "scripts/no-such-grading-script.ts" });
    await expect(grade(EMPTY, () => {})).rejects.toThrow(
      /^the grading process stopped \(exit code 1\) before answering: .*no-such-grading-script/,
    );
  });

  it("stops a grading that does not answer in time, and says so", async () => {
    const grade = processGrader({ timeoutMs: 300 });
    await expect(grade(EMPTY, () => {})).rejects.toThrow("the grading took longer than 0.3 s and was stopped");
  });
});
