// A real graded eval run for the browser suite (e2e/leads.spec.ts): the tiny dataset
// e2e/fixtures/episodes-wrong-expectation.jsonl goes through the real grader (gradeEpisodes on a
// fresh in-memory database), then buildReceipt, decideRelease and storeEvalRun into the e2e
// database. One of its episodes (grounded-refund-draft) expects a deliberately wrong path, so the run
// holds with failed:grounded-refund-draft and its page shows a path diff. The receipt is pinned to
// the fixture's own dataset version and hash, so the failure – not a version mismatch – is the reason.
import { resolve } from "node:path";
import type { PrismaClient } from "../../generated/prisma/client";
import { agentManifest } from "../../lib/contracts/manifest";
import { decideRelease } from "../../lib/eval/decide-release";
import { openGradingDatabase } from "../../lib/eval/episode-images";
import { gradeEpisodes, GRADER_VERSION } from "../../lib/eval/grade-episodes";
import { corpusHash } from "../../lib/policy/corpus-hash";
import { loadDataset } from "../../lib/eval/load-dataset";
import { buildReceipt } from "../../lib/eval/receipt";
import { storeEvalRun } from "../../lib/eval/store-eval-run";
import { seedDemo } from "./demo";

export const E2E_EVAL_DATASET = "e2e/fixtures/episodes-wrong-expectation.jsonl";

/** Grades the fixture dataset and stores the run; does nothing when it is already stored. Returns the run id. */
export async function seedE2eEvalRun(client: PrismaClient): Promise<string> {
  const dataset = await loadDataset(resolve(E2E_EVAL_DATASET));
  const existing = await client.evalRun.findFirst({
    where: { datasetVersion: dataset.version, datasetHash: dataset.hash },
    select: { id: true },
  });
  if (existing) return existing.id;
  const { agentVersion } = agentManifest();
  // The receipt names the corpus the episodes ran on: the world's, read from its database.
  const world = await openGradingDatabase(seedDemo);
  let rows, corpus;
  try {
    corpus = await corpusHash(world.client);
    rows = await gradeEpisodes(dataset, { world: seedDemo, database: world });
  } finally {
    await world.close();
  }
  const receipt = buildReceipt({
    agentVersion,
    datasetVersion: dataset.version,
    datasetHash: dataset.hash,
    graderVersion: GRADER_VERSION,
    corpusHash: corpus,
    modelId: "none (rule planner)",
    commit: "e2e-fixture",
    trials: 1,
    rows,
  });
  const pins = {
    agentVersion,
    datasetVersion: dataset.version,
    datasetHash: dataset.hash,
    datasetEpisodes: dataset.episodes.length,
    graderVersion: GRADER_VERSION,
  };
  const decision = decideRelease(receipt, pins, { hash: dataset.hash, episodeIds: dataset.episodes.map((e) => e.id) });
  const run = await storeEvalRun({ receipt, decision, client });
  return run.id;
}
