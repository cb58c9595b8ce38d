import { describe, expect, it } from "vitest";
import { decideRelease, type TGradedDataset, type TReleasePins } from "./decide-release";
import { HOLD_REASONS, type THoldReason } from "../contracts/reason-codes";
import type { TReceipt } from "./receipt";

const HASH = `sha256:${"a".repeat(64)}`;
const pins: TReleasePins = { agentVersion: "agent-v2", datasetVersion: "episodes-v1", datasetHash: HASH, datasetEpisodes: 3, graderVersion: "grader-v1" };
const dataset: TGradedDataset = { hash: HASH, episodeIds: ["a", "b", "c"] };
const row = (episodeId: string, passed = true, trial = 1) => ({ episodeId, trial, passed, expected: {}, actual: {}, explanation: passed ? null : "path differs" });
const receipt = (rows = [row("a"), row("b"), row("c")], over: Partial<TReceipt> = {}): TReceipt => ({
  receiptVersion: 1,
  agentVersion: "agent-v2",
  datasetVersion: "episodes-v1",
  datasetHash: HASH,
  corpusHash: "c".repeat(64),
  graderVersion: "grader-v1",
  modelId: "none",
  commit: "0123abc",
  trials: 1,
  createdAt: "2026-11-22T00:00:00.000Z",
  rows,
  ...over,
});
const EDITED = `sha256:${"b".repeat(64)}`;

// One case per hold reason, keyed by the reason: a new reason fails the typecheck until it has one.
const HOLDS = {
  agent_version: [receipt(undefined, { agentVersion: "agent-v1" }), dataset, "agent_version:agent-v1"],
  dataset_version: [receipt(undefined, { datasetVersion: "episodes-v0" }), dataset, "dataset_version:episodes-v0"],
  dataset_drift: [receipt([row("a"), row("b")], { datasetHash: EDITED }), { hash: EDITED, episodeIds: ["a", "b"] }, "dataset_drift:episodes 2, pinned 3"],
  grader_version: [receipt(undefined, { graderVersion: "grader-v0" }), dataset, "grader_version:grader-v0"],
  missing: [receipt([row("a"), row("c")]), dataset, "missing:b"],
  duplicate: [receipt([row("a"), row("b"), row("b"), row("c")]), dataset, "duplicate:b"],
  unexpected: [receipt([row("a"), row("b"), row("c"), row("zz-extra")]), dataset, "unexpected:zz-extra"],
  failed: [receipt([row("a"), row("b", false), row("c", false)]), dataset, "failed:b,c"],
} satisfies Record<THoldReason, [TReceipt, TGradedDataset, string]>;

describe("decideRelease", () => {
  it("is eligible_for_shadow for a complete, exact, all-passing receipt of the pinned dataset", () => {
    expect(decideRelease(receipt(), pins, dataset)).toEqual({ outcome: "eligible_for_shadow", reason: null });
  });

  it("can produce every hold reason", () => {
    expect(Object.keys(HOLDS)).toEqual([...HOLD_REASONS]);
    for (const [reason, [r, d, expected]] of Object.entries(HOLDS)) {
      expect(decideRelease(r, pins, d), reason).toEqual({ outcome: "hold", reason: expected });
    }
  });

  it.each([
    ["a dataset with an episode removed, whatever the receipt claims", receipt([row("a"), row("b")]), { hash: EDITED, episodeIds: ["a", "b"] }, "dataset_drift:episodes 2, pinned 3"],
    ["an edited dataset with the same episodes and version label", receipt(undefined, { datasetHash: EDITED }), { hash: EDITED, episodeIds: ["a", "b", "c"] }, `dataset_drift:content sha256:bbbbbbbbbbbb…, pinned sha256:aaaaaaaaaaaa…`],
    ["a receipt naming another dataset than the one handed in", receipt(undefined, { datasetHash: EDITED }), dataset, `dataset_drift:receipt names sha256:bbbbbbbbbbbb…, pinned sha256:aaaaaaaaaaaa…`],
    ["a trial out of range", receipt([row("a"), row("b"), row("c"), row("a", true, 2)]), dataset, "unexpected:a"],
  ])("holds %s", (_label, r, d, reason) => {
    expect(decideRelease(r, pins, d)).toEqual({ outcome: "hold", reason });
  });

  it("needs every trial of every episode when graded more than once", () => {
    const two = receipt([row("a"), row("a", true, 2), row("b"), row("b", true, 2), row("c")], { trials: 2 });
    expect(decideRelease(two, pins, dataset)).toEqual({ outcome: "hold", reason: "missing:c" });
  });

  it("checks identity before contents: a drifted receipt is held for its drift, not its rows", () => {
    expect(decideRelease(receipt([row("a", false)], { graderVersion: "x" }), pins, dataset).reason).toBe("grader_version:x");
  });
});
