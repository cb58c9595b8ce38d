// The grader and the evaluation page compare an outcome with one comparison: for the same graded
// episode, the fields (and the path step) the page marks as differing, read back from the stored run,
// are exactly those the grader's explanation names. Real grading, a real stored run, the page's own
// data functions.
import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { seedDemo } from "../../prisma/seed/demo";
import { loadDataset } from "./load-dataset";
import { gradeEpisodes, GRADER_VERSION } from "./grade-episodes";
import { buildReceipt } from "./receipt";
import { decideRelease } from "./decide-release";
import { storeEvalRun } from "./store-eval-run";
import { listEpisodeResults } from "./list-eval-runs";
import { episodeComparison } from "./episode-diff";
import type { TEpisode } from "./episode";

const testDb = useTestDb();

/** The fields an explanation names, in its order, with the step it puts the path's difference at. */
function namedInExplanation(explanation: string | null): { fields: string[]; pathStep: number | null } {
  const parts = explanation ? explanation.split("; ") : [];
  const step = parts.map((p) => /^path differs at step (\d+):/.exec(p)).find(Boolean);
  return { fields: parts.map((p) => /^(\w+)[: ]/.exec(p)![1]!), pathStep: step ? Number(step[1]) : null };
}

/** The fields the page marks as differing, in the grader's order (the path where the explanation puts it). */
function markedOnPage(row: { expected: unknown; actual: unknown }): { fields: string[]; pathStep: number | null } {
  const { path, fields } = episodeComparison(row);
  const differing = fields.filter((f) => !f.same).map((f) => f.field as string);
  const afterReason = differing.filter((f) => f === "status" || f === "reason").length;
  if (path.firstDifference !== null) differing.splice(afterReason, 0, "path");
  return { fields: differing, pathStep: path.firstDifference };
}

describe("one outcome comparison", () => {
  it("marks on the evaluation page exactly the differences the grader's explanation names, for the same episode", async () => {
    const shipped = await loadDataset("eval/episodes.jsonl");
    const approved = shipped.episodes.find((e) => e.id === "grounded-refund-approved")!;
    // Wrong on purpose: two steps swapped, a ledger row too many, a replay that never ran. And two
    // expectations that hold only under the shared rules: the proposal named without its role (a
    // role is compared only when stated), the approval stated (compared only then).
    const wrong: TEpisode = {
      ...approved,
      id: "grounded-refund-approved-wrong",
      expect: {
        ...approved.expect,
        path: ["get_policy_evidence", "lookup_order", "propose_refund", "draft_reply", "request_human_approval"],
        refunds: 2,
        executions: ["refund_created", "duplicate_ignored"],
        proposal: { decision: "needs_human" },
      },
    };
    const dataset = { version: "one-comparison-v1", hash: "test", episodes: [approved, wrong] };
    const graded = await gradeEpisodes(dataset, { world: seedDemo, workers: 1 });
    expect(graded.map((r) => [r.episodeId, r.passed])).toEqual([
      ["grounded-refund-approved", true],
      ["grounded-refund-approved-wrong", false],
    ]);

    const { client } = testDb();
    const receipt = buildReceipt({ agentVersion: "test", datasetVersion: dataset.version, datasetHash: dataset.hash, graderVersion: GRADER_VERSION, corpusHash: "test", modelId: "none", commit: "test", trials: 1, rows: graded });
    const decision = decideRelease(receipt, { agentVersion: "test", datasetVersion: dataset.version, datasetHash: dataset.hash, datasetEpisodes: 2, graderVersion: GRADER_VERSION }, { hash: dataset.hash, episodeIds: ["grounded-refund-approved", "grounded-refund-approved-wrong"] });
    const run = await storeEvalRun({ receipt, decision, client });
    const stored = await listEpisodeResults({ evalRunId: run.id, client });

    for (const row of graded) {
      const shown = stored.rows.find((r) => r.episodeId === row.episodeId)!;
      expect(shown.explanation).toBe(row.explanation);
      expect(markedOnPage(shown), row.episodeId).toEqual(namedInExplanation(row.explanation));
    }
    expect(namedInExplanation(graded[1]!.explanation)).toEqual({ fields: ["path", "refunds", "executions"], pathStep: 3 });
  }, 120_000);
});
