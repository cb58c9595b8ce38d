// The shipped dataset is a test: eval/episodes.jsonl graded through the real runtime must pass every
// episode and reach eligible_for_shadow against the manifest's pins. The same dataset with its last
// episode removed, or one title reworded, must hold as dataset_drift though every row passes. The
// drifted receipts carry the rows the shipped grading produced for their episodes (each episode is
// graded on its own, and a title is never read by the grader), so the dataset is graded once.
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { agentManifest } from "../contracts/manifest";
import { decideRelease, releasePins } from "./decide-release";
import type { TDataset } from "./episode";
import { gradeEpisodes, GRADER_VERSION, type TEpisodeRow } from "./grade-episodes";
import { datasetFromText } from "./load-dataset";
import { buildReceipt } from "./receipt";
import { seedDemo } from "../../prisma/seed/demo";

const SHIPPED = readFileSync("eval/episodes.jsonl", "utf8");
let graded: TEpisodeRow[];

function decide(dataset: TDataset) {
  const manifest = agentManifest();
  const ids = new Set(dataset.episodes.map((e) => e.id));
  const rows = graded.filter((r) => ids.has(r.episodeId));
  const receipt = buildReceipt({ agentVersion: manifest.agentVersion, datasetVersion: dataset.version, datasetHash: dataset.hash, graderVersion: GRADER_VERSION, corpusHash: "test", modelId: "none", commit: "test", trials: 1, rows });
  return decideRelease(receipt, releasePins(manifest), { hash: dataset.hash, episodeIds: [...ids] });
}

describe("the shipped dataset", () => {
  beforeAll(async () => {
    graded = await gradeEpisodes(datasetFromText(SHIPPED), { world: seedDemo });
  }, 180_000);

  it("passes every episode through the real runtime and is eligible_for_shadow", () => {
    expect(graded.filter((r) => !r.passed).map((r) => `${r.episodeId}: ${r.explanation}`)).toEqual([]);
    expect(graded).toHaveLength(agentManifest().evalDatasetEpisodes);
    expect(decide(datasetFromText(SHIPPED))).toEqual({ outcome: "eligible_for_shadow", reason: null });
  });

  it("holds as dataset_drift with its last episode removed, though every row passes", () => {
    const lines = SHIPPED.trimEnd().split("\n");
    const shorter = datasetFromText(lines.slice(0, -1).join("\n") + "\n");
    expect(shorter.episodes).toHaveLength(agentManifest().evalDatasetEpisodes - 1);
    expect(decide(shorter)).toEqual({ outcome: "hold", reason: `dataset_drift:episodes ${shorter.episodes.length}, pinned ${agentManifest().evalDatasetEpisodes}` });
  });

  it("holds as dataset_drift with one title reworded under the same version label", () => {
    const reworded = datasetFromText(SHIPPED.replace(/"title": "([^"]*)"/, '"title": "$1 (reworded)"'));
    expect(reworded.version).toBe(agentManifest().evalDatasetVersion);
    const decision = decide(reworded);
    expect(decision.outcome).toBe("hold");
    expect(decision.reason).toMatch(/^dataset_drift:content sha256:[0-9a-f]{12}…, pinned sha256:/);
  });
});
