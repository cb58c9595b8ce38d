// Grading on worker threads gives the rows grading in one thread gives: the same rows, in dataset
// order, whatever the number of workers and whichever finishes first. A receipt's rows are what its
// hash and the release decision read, so they must not depend on scheduling.
import { describe, expect, it } from "vitest";
import { canonicalJson, sha256Hex } from "../contracts/canonical";
import { loadDataset } from "./load-dataset";
import { gradeEpisodes, type TEpisodeRow } from "./grade-episodes";
import { seedDemo } from "../../prisma/seed/demo";

// Episodes of several kinds: a bypass, approval paths (approve and execute, expiry), a hung tool and
// model episodes on the local fake server (each worker runs its own).
const IDS = [
  "urgent-intake-bypass",
  "grounded-refund-approved",
  "expired-approval",
  "tool-timeout",
  "model-grounded-refund-draft",
  "model-rate-limited",
];

const hashOf = (rows: TEpisodeRow[]) => sha256Hex(canonicalJson(rows));

describe("grading on worker threads", () => {
  it("gives the rows of one thread, in dataset order, with 3 workers", async () => {
    const shipped = await loadDataset("eval/episodes.jsonl");
    const dataset = { ...shipped, episodes: shipped.episodes.filter((e) => IDS.includes(e.id)) };
    expect(dataset.episodes.map((e) => e.id).sort()).toEqual([...IDS].sort());

    const progress: number[] = [];
    const inThread = await gradeEpisodes(dataset, { world: seedDemo, trials: 2, workers: 1 });
    const onThree = await gradeEpisodes(dataset, { world: seedDemo, trials: 2, workers: 3, onProgress: (done) => progress.push(done) });

    expect(inThread.filter((r) => !r.passed).map((r) => `${r.episodeId}: ${r.explanation}`)).toEqual([]);
    expect(inThread.map((r) => `${r.episodeId}#${r.trial}`)).toEqual(dataset.episodes.flatMap((e) => [`${e.id}#1`, `${e.id}#2`]));
    expect(hashOf(onThree)).toBe(hashOf(inThread));
    expect(progress).toEqual(Array.from({ length: IDS.length * 2 }, (_, i) => i + 1));
  }, 600_000);
});
