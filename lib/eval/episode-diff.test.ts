import { describe, expect, it } from "vitest";
import { compareOutcomeFields, diffPaths, explainDifference, readOutcome } from "./episode-diff";
import type { TActualOutcome } from "./play-episode";
import type { TEpisode } from "./episode";

const expected: TEpisode["expect"] = {
  status: "needs_human",
  reason: "draft_ready_for_review",
  path: ["get_policy_evidence", "lookup_order", "propose_refund", "draft_reply", "request_human_approval"],
  citations: ["return-policy-us@2"],
  refunds: 0,
  proposal: { decision: "needs_human", requiredRole: "REVIEWER" },
};
const actual: TActualOutcome = {
  status: "needs_human",
  reason: "draft_ready_for_review",
  path: ["get_policy_evidence", "lookup_order", "draft_reply", "propose_refund", "request_human_approval"],
  citations: ["return-policy-us@2"],
  refunds: 0,
  proposal: { decision: "needs_human", requiredRole: "REVIEWER" },
};

describe("diffPaths", () => {
  it("aligns by step and marks the first difference where the grader's explanation puts it", () => {
    const diff = diffPaths(expected.path, actual.path);
    expect(diff.firstDifference).toBe(3);
    expect(explainDifference(expected, actual)).toContain(`path differs at step ${diff.firstDifference}:`);
    expect(diff.steps.map((s) => s.same)).toEqual([true, true, false, false, true]);
    expect(diff.steps[2]).toEqual({ step: 3, expected: "propose_refund", actual: "draft_reply", same: false });
  });

  it("shows an ended path as null and differs from the first missing step", () => {
    const diff = diffPaths(["get_policy_evidence", "lookup_order", "request_human_approval"], ["get_policy_evidence"]);
    expect(diff.firstDifference).toBe(2);
    expect(diff.steps.at(-1)).toEqual({ step: 3, expected: "request_human_approval", actual: null, same: false });
  });

  it("agrees on identical and empty paths", () => {
    expect(diffPaths(["lookup_order"], ["lookup_order"]).firstDifference).toBeNull();
    expect(diffPaths([], [])).toEqual({ steps: [], firstDifference: null });
  });

  it("treats an episode that never ran as differing from its first expected step", () => {
    const diff = diffPaths(["lookup_order"], null);
    expect(diff.firstDifference).toBe(1);
    expect(diff.steps[0]).toMatchObject({ expected: "lookup_order", actual: null, same: false });
  });
});

describe("readOutcome and compareOutcomeFields", () => {
  it("reads stored outcomes, and an episode that could not run as null", () => {
    expect(readOutcome({ notRun: true })).toBeNull();
    expect(readOutcome("garbage")).toBeNull();
    expect(readOutcome(actual)?.path).toEqual(actual.path);
  });

  it("compares the other fields like the grader: citations as sets, optional checks only when expected", () => {
    const fields = compareOutcomeFields(readOutcome(expected)!, readOutcome({ ...actual, citations: ["b@1", "a@1"], refunds: 1 }));
    expect(fields.map((f) => f.field)).toEqual(["status", "reason", "citations", "refunds", "proposal"]);
    expect(fields.find((f) => f.field === "refunds")).toEqual({ field: "refunds", expected: "0", actual: "1", same: false });
    expect(fields.find((f) => f.field === "status")?.same).toBe(true);

    const sets = compareOutcomeFields(readOutcome({ ...expected, citations: ["a@1", "b@1"] })!, readOutcome({ ...actual, citations: ["b@1", "a@1"] }));
    expect(sets.find((f) => f.field === "citations")?.same).toBe(true);

    const notRun = compareOutcomeFields(readOutcome(expected)!, null);
    expect(notRun.every((f) => !f.same && f.actual === "(did not run)")).toBe(true);
  });

  it("compares approval and executions when the episode states them", () => {
    const withApproval = { ...expected, approval: "decided", executions: ["refund_created"] };
    const fields = compareOutcomeFields(readOutcome(withApproval)!, readOutcome({ ...actual, approval: "decided", executions: ["refund_created", "duplicate_ignored"] }));
    expect(fields.find((f) => f.field === "approval")?.same).toBe(true);
    expect(fields.find((f) => f.field === "executions")).toMatchObject({ same: false, actual: '["refund_created","duplicate_ignored"]' });
  });
});
