// The grader against the real dataset, with the runtime's transition check removed: the episodes
// that exist to catch that must fail by name, and the release must hold.
import { describe, expect, it, vi } from "vitest";
import { loadDataset } from "./load-dataset";
import { gradeEpisodes } from "./grade-episodes";
import { buildReceipt } from "./receipt";
import { decideRelease, releasePins } from "./decide-release";
import { agentManifest } from "../contracts/manifest";
import { seedDemo } from "../../prisma/seed/demo";

vi.mock("../agent/transitions", () => ({ transitionProblem: () => null }));

describe("grading a broken runtime", () => {
  it("fails the transition episodes by name and holds the release", async () => {
    const dataset = await loadDataset("eval/episodes.jsonl");
    // In this thread: the mock above replaces the module here, not in a worker's own module graph.
    const rows = await gradeEpisodes(dataset, { world: seedDemo, workers: 1 });
    const failed = rows.filter((r) => !r.passed).map((r) => r.episodeId);
    expect(failed).toEqual(expect.arrayContaining(["premature-draft", "draft-without-order", "refund-over-refundable"]));
    const premature = rows.find((r) => r.episodeId === "premature-draft")!;
    expect(premature.explanation).toMatch(/^status: expected "blocked", got "needs_human"|path differs/);
    expect(premature.explanation).toContain("reason: expected \"invalid_state_transition\"");

    const receipt = buildReceipt({ agentVersion: agentManifest().agentVersion, datasetVersion: dataset.version, datasetHash: dataset.hash, graderVersion: "trajectory-gate-v1", corpusHash: "test", modelId: "none", commit: "test", trials: 1, rows });
    const decision = decideRelease(receipt, releasePins(agentManifest()), { hash: dataset.hash, episodeIds: dataset.episodes.map((e) => e.id) });
    expect(decision.outcome).toBe("hold");
    expect(decision.reason).toMatch(/^failed:.*premature-draft/);
  }, 120_000);
});
