// The trajectory grader (trajectory-gate-v1): every episode runs through the real runtime – planner,
// validator, transition rules, policy gate, tools, approvals, executor – on a fresh database, and its
// outcome is compared field by field with the expected one. A failure says exactly what differed.
// This file composes the grader's parts: the databases (episode-images.ts), an episode written into
// one (materialize-episode.ts) and played (play-episode.ts), the one outcome comparison
// (episode-diff.ts), and which grader takes which episode when (schedule-grading.ts).
import type { DbHandle } from "../db";
import type { TLlmConfig } from "../llm/provider";
import type { TDataset, TEpisode } from "./episode";
import { explainDifference } from "./episode-diff";
import { gradingDb, gradingImage, openGradingDatabase, type TGradingDb, type TGradingWorld } from "./episode-images";
import { modelEndpoints, playEpisode, usesModel, type TActualOutcome, type TModelEndpoints } from "./play-episode";
import { defaultWorkers, gradingUnits, startWorkers, takeUnits, unitCounters, type TGradingUnit, type TUnitCounters, type TWorkerImage } from "./schedule-grading";

/** This grader's own identity; the manifest's graderVersion must name it (lib/contracts/pins.test.ts). */
export const GRADER_VERSION = "trajectory-gate-v1";

export interface TEpisodeRow {
  episodeId: string;
  trial: number;
  passed: boolean;
  expected: TEpisode["expect"];
  actual: TActualOutcome | null;
  /** Why it failed, precisely; null when it passed. */
  explanation: string | null;
  /** What the episode's run cost (tokens × MODEL_PRICES); null: unknown. Not part of the receipt's rows. */
  costUsd?: number | null;
}

export interface TGradeOptions {
  world: TGradingWorld;
  /**
   * The world's database, opened by the caller (openGradingDatabase) to read it too: this thread
   * grades on it, after dumping the other graders' image from it. The caller closes it.
   */
  database?: DbHandle;
  trials?: number;
  /**
   * Graders at once (default: defaultWorkers): this thread, on the world's database, and one worker
   * thread for each beyond the first, each with its own in-memory database opened from an image of
   * the world. 1 grades in this thread alone. The rows are the same whatever the number: each episode
   * and trial has its own tag from its place in the dataset, and the rows come back in dataset order.
   */
  workers?: number;
  /** The configured model endpoint. Without one, model episodes run against the local fake server. */
  llm?: TLlmConfig;
  onProgress?: (done: number, total: number, row: TEpisodeRow) => void;
}

/** What a grading worker is given when it starts (grade-worker.ts); the image follows as a message. */
export interface TWorkerInput {
  episodes: TEpisode[];
  /** Every unit: the worker takes its next from `counters`, as every grader does. */
  units: TGradingUnit[];
  counters: TUnitCounters;
  llm?: TLlmConfig;
}

/** One unit played and compared: its row, failed with the reason when it could not run. */
async function gradeUnit(g: TGradingDb, episode: TEpisode, unit: TGradingUnit, models: TModelEndpoints): Promise<TEpisodeRow> {
  try {
    const { actual, costUsd, stopDetail } = await playEpisode(g, episode, unit.tag, models, GRADER_VERSION);
    const difference = explainDifference(episode.expect, actual);
    const explanation = difference && stopDetail ? `${difference} (the run stopped: ${stopDetail})` : difference;
    return { episodeId: episode.id, trial: unit.trial, passed: explanation === null, expected: episode.expect, actual, explanation, costUsd };
  } catch (error) {
    return { episodeId: episode.id, trial: unit.trial, passed: false, expected: episode.expect, actual: null, explanation: `the episode could not run: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/**
 * Grades units on one database, taking each from the shared counters until none is left; `onRow`
 * hears each row as it is graded. Shared by the grading in this thread and each worker's
 * (grade-worker.ts). Model episodes share the thread's one fake server, so they take a lane of their own.
 */
export async function gradeUnits(
  g: TGradingDb,
  episodes: readonly TEpisode[],
  units: readonly TGradingUnit[],
  counters: TUnitCounters,
  llm: TLlmConfig | undefined,
  onRow: (unit: TGradingUnit, row: TEpisodeRow) => void,
): Promise<void> {
  const models = await modelEndpoints(
    units.map((u) => episodes[u.episode]!),
    llm,
  );
  try {
    await takeUnits(
      units,
      counters,
      (unit) => usesModel(episodes[unit.episode]!),
      async (unit) => onRow(unit, await gradeUnit(g, episodes[unit.episode]!, unit, models)),
    );
  } finally {
    await models.fake?.close();
  }
}

export async function gradeEpisodes(dataset: TDataset, options: TGradeOptions): Promise<TEpisodeRow[]> {
  const units = gradingUnits(dataset.episodes.length, options.trials ?? 1);
  const rows: TEpisodeRow[] = new Array(units.length);
  const graders = Math.max(1, Math.min(options.workers ?? defaultWorkers(units.length), units.length));
  let done = 0;
  const onRow = (unit: TGradingUnit, row: TEpisodeRow) => {
    rows[unit.index] = row;
    options.onProgress?.(++done, units.length, row);
  };
  const counters = unitCounters();
  // The other graders are worker threads. They start as soon as their code is bundled (a tenth of a
  // second, in esbuild's own process), and load it (over half a second of CPU) while this thread opens
  // the world's database and makes its image; each opens its own database from the image once it is
  // sent, and this thread grades on the world's database meanwhile.
  const input: TWorkerInput = { episodes: dataset.episodes, units, counters, llm: options.llm };
  const starting = startWorkers<TEpisodeRow>(graders - 1, input, (index, row) => onRow(units[index]!, row));
  // Its failure is this call's, thrown where it is awaited: not an unhandled rejection meanwhile.
  starting.catch(() => {});
  let handle: DbHandle | undefined;
  let started: Awaited<typeof starting> = [];
  try {
    handle = options.database ?? (await openGradingDatabase(options.world));
    started = await starting;
    if (started.length) {
      // One image, shared by every worker without a copy; made before this thread writes an episode.
      const image = await gradingImage(handle);
      for (const { worker } of started) worker.postMessage({ kind: "image", image } satisfies TWorkerImage);
    }
    await gradeUnits(gradingDb(handle.client), dataset.episodes, units, counters, options.llm, onRow);
  } catch (error) {
    const workers = await starting.catch(() => started);
    await Promise.all(workers.map(({ worker }) => worker.terminate()));
    throw error;
  } finally {
    if (handle && handle !== options.database) await handle.close();
  }
  const results = await Promise.allSettled(started.map(({ finished }) => finished));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
  return rows;
}
