import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { diffPaths, readOutcome } from "../../lib/eval/episode-diff";
import { seedE2eEvalRun } from "./e2e-eval";

const testDb = useTestDb();

describe("seedE2eEvalRun", () => {
  it("grades the fixture for real: the deliberately wrong expectation fails at step 3, the run holds for it alone", async () => {
    const { client } = testDb();
    const id = await seedE2eEvalRun(client);
    const run = await client.evalRun.findUniqueOrThrow({ where: { id }, include: { episodes: true, decisions: true } });
    expect(run).toMatchObject({ datasetVersion: "e2e-wrong-expectation-v1", graderVersion: "trajectory-gate-v1", passed: 2, failed: 1 });
    expect(run.decisions.map((d) => [d.outcome, d.reason])).toEqual([["hold", "failed:grounded-refund-draft"]]);
    const failed = run.episodes.find((e) => !e.passed)!;
    expect(failed.episodeId).toBe("grounded-refund-draft");
    expect(failed.explanation).toMatch(/^path differs at step 3: expected propose_refund, got draft_reply/);
    expect(diffPaths(readOutcome(failed.expected)!.path, readOutcome(failed.actual)!.path).firstDifference).toBe(3);
    expect(await client.auditEvent.count({ where: { action: "release.decided", subjectId: id } })).toBe(1);

    // Seeding again stores nothing new.
    expect(await seedE2eEvalRun(client)).toBe(id);
    expect(await client.evalRun.count()).toBe(1);
  });
});
