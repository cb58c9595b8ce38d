import { describe, expect, it } from "vitest";
import { decideRelease, type TPinned } from "./decide-release";
import type { TReceipt } from "./receipt";

const pinned: TPinned = { agentVersion: "refund-agent-v2", datasetVersion: "refund-agent-episodes-v1", datasetHash: "sha256:abc", graderVersion: "trajectory-gate-v1", episodeIds: ["a", "b", "c"] };
const row = (episodeId: string, passed = true, trial = 1) => ({ episodeId, trial, passed, expected: {}, actual: {}, explanation: passed ? null : "path differs" });
const receipt = (rows = [row("a"), row("b"), row("c")], over: Partial<TReceipt> = {}): TReceipt => ({
  receiptVersion: 1,
  agentVersion: "refund-agent-v2",
  datasetVersion: "refund-agent-episodes-v1",
  datasetHash: "sha256:abc",
  graderVersion: "trajectory-gate-v1",
  modelId: "none",
  commit: "0123abc",
  trials: 1,
  createdAt: "2026-11-22T00:00:00.000Z",
  rows,
  ...over,
});

describe("decideRelease", () => {
  it("is eligible_for_shadow for a complete, exact, all-passing receipt", () => {
    expect(decideRelease(receipt(), pinned)).toEqual({ outcome: "eligible_for_shadow", reason: null });
  });

  it.each([
    ["an incomplete receipt", receipt([row("a"), row("c")]), "missing:b"],
    ["a padded receipt", receipt([row("a"), row("b"), row("c"), row("zz-extra")]), "unexpected:zz-extra"],
    ["a duplicated row", receipt([row("a"), row("b"), row("b"), row("c")]), "duplicate:b"],
    ["a failed episode", receipt([row("a"), row("b", false), row("c", false)]), "failed:b,c"],
    ["a drifted dataset version", receipt(undefined, { datasetVersion: "refund-agent-episodes-v0" }), "dataset_version:refund-agent-episodes-v0"],
    ["a drifted dataset content", receipt(undefined, { datasetHash: "sha256:edited" }), "dataset_hash:sha256:edited"],
    ["a drifted grader", receipt(undefined, { graderVersion: "trajectory-gate-v0" }), "grader_version:trajectory-gate-v0"],
    ["another agent version", receipt(undefined, { agentVersion: "refund-agent-v1" }), "agent_version:refund-agent-v1"],
    ["a trial out of range", receipt([row("a"), row("b"), row("c"), row("a", true, 2)]), "unexpected:a"],
  ])("holds %s", (_label, r, reason) => {
    expect(decideRelease(r, pinned)).toEqual({ outcome: "hold", reason });
  });

  it("needs every trial of every episode when graded more than once", () => {
    const two = receipt([row("a"), row("a", true, 2), row("b"), row("b", true, 2), row("c")], { trials: 2 });
    expect(decideRelease(two, pinned)).toEqual({ outcome: "hold", reason: "missing:c" });
  });

  it("checks identity before contents: a drifted receipt is held for its drift, not its rows", () => {
    expect(decideRelease(receipt([row("a", false)], { graderVersion: "x" }), pinned).reason).toBe("grader_version:x");
  });
});
