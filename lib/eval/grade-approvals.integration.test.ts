// The grader decides an episode's approval through the real decision: a refused decision is graded
// by its code (expired, role_insufficient), an accepted one as decided; anything else fails the row.
import { describe, expect, it } from "vitest";
import { loadDataset } from "./load-dataset";
import { gradeEpisodes } from "./grade-episodes";
import { seedDemo } from "../../prisma/seed/demo";

describe("grading the approval episodes", () => {
  it("grades each refused decision by its code and each accepted one as decided, and passes them all", async () => {
    const dataset = await loadDataset("eval/episodes.jsonl");
    const episodes = dataset.episodes.filter((e) => e.approval);
    const rows = await gradeEpisodes({ ...dataset, episodes }, { world: seedDemo });
    const approvals = Object.fromEntries(rows.map((r) => [r.episodeId, r.actual?.approval]));
    expect(approvals).toMatchObject({
      "expired-approval": "expired",
      "large-refund-reviewer-refused": "role_insufficient",
      "large-refund-lead-refused": "role_insufficient",
      "grounded-refund-approved": "decided",
      "large-refund-specialist-approves": "decided",
    });
    expect(rows.filter((r) => !r.passed).map((r) => `${r.episodeId}: ${r.explanation}`)).toEqual([]);
  }, 120_000);
});
