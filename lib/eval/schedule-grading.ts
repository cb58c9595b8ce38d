// When and where each episode is graded: the units (episode × trial) and their tags, how many graders
// (this thread and worker threads), which unit a grader takes next, and the lanes a grader runs its
// units in. It knows nothing of what grading a unit does (grade-episodes.ts gives that), and nothing
// here changes a row: a unit's tag and its row's place come from its place in the dataset.
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { gradingWorkerFile } from "./worker-bundle";

/**
 * Episodes × trials a worker thread is worth starting for. A worker costs its own module graph and
 * database, about a second of CPU (half a second for its bundled modules, a third for its database
 * from the image) and some hundreds of MB before its first episode, what a few dozen episodes cost
 * to grade: fewer units than this are graded faster, and in far less memory, by one.
 */
export const UNITS_PER_WORKER = 150;

/** Graders for this many units when the caller names no number: the CPUs, one per UNITS_PER_WORKER. */
export function defaultWorkers(units: number): number {
  return Math.max(1, Math.min(availableParallelism(), Math.ceil(units / UNITS_PER_WORKER)));
}

/** One episode and trial to grade, and its tag: from its place in the dataset, never from who grades it. */
export interface TGradingUnit {
  /** Its place among every episode × trial, from 0: its row's place in the result. */
  index: number;
  episode: number;
  trial: number;
  tag: string;
}

/** Every episode × trial, in dataset order, each tagged by its place. */
export function gradingUnits(episodes: number, trials: number): TGradingUnit[] {
  const units: TGradingUnit[] = [];
  for (let episode = 0; episode < episodes; episode++) {
    for (let trial = 1; trial <= trials; trial++) units.push({ index: units.length, episode, trial, tag: `EV${String(units.length + 1).padStart(5, "0")}` });
  }
  return units;
}

/**
 * Episodes graded at once on one database. The database runs one statement at a time, but an
 * episode also waits – for a tool that hangs until its timeout, for a scripted planner's delay –
 * and while it waits the others run. Each episode has its own customer, order and ticket, and every
 * time budget an episode is written against is an order of magnitude from what it takes, so the
 * rows are the ones a single lane gives (lib/eval/grade-workers.integration.test.ts).
 */
export const GRADING_LANES = 4;

/**
 * Which unit each grader takes next, shared by every grading thread: two counters in shared memory,
 * one for the units in the lane of their own (the model planner's) and one for the rest, each the
 * place of the next unit to take in its list. A grader that is free takes the next one (Atomics.add),
 * so a thread that started late, or grades more slowly, takes fewer. Which database grades which unit
 * then depends on timing, and does not change its row: an episode has its own customer, order and
 * ticket, and the one thing the episodes of a database share, the day's auto-approved total, stays
 * under its cap for the 1,000 episodes of the bench graded on a single database
 * (`scripts/bench-eval.ts 1000 1` passes them all).
 */
export type TUnitCounters = SharedArrayBuffer;

export function unitCounters(): TUnitCounters {
  return new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT);
}

/**
 * Takes units from the shared counters until none is left and grades each: those `alone` picks one
 * after another in a lane of their own (they share one resource of the thread, the fake model
 * server, whose answers are queued per episode), the rest in GRADING_LANES lanes.
 */
export async function takeUnits(units: readonly TGradingUnit[], counters: TUnitCounters, alone: (unit: TGradingUnit) => boolean, grade: (unit: TGradingUnit) => Promise<void>): Promise<void> {
  const next = new Int32Array(counters);
  const own = units.filter(alone);
  const rest = units.filter((u) => !alone(u));
  const lane = async (queue: readonly TGradingUnit[], counter: number) => {
    for (let unit = queue[Atomics.add(next, counter, 1)]; unit; unit = queue[Atomics.add(next, counter, 1)]) await grade(unit);
  };
  await Promise.all([lane(own, 0), ...Array.from({ length: Math.min(GRADING_LANES, rest.length) }, () => lane(rest, 1))]);
}

/** What a grading worker is sent: the image to open, once it exists. */
export type TWorkerImage = { kind: "image"; image: SharedArrayBuffer };

/** What a grading worker says: a row, or that it is done. */
export type TWorkerMessage<TRow> = { kind: "row"; index: number; row: TRow } | { kind: "done" };

/**
 * A grading worker thread running `file` (grade-worker.ts bundled: worker-bundle.ts), started with
 * `input`; `onRow` hears each row it posts. `finished` settles when it exits: rejected if it stopped
 * before saying it was done. The bundle is plain JavaScript: the worker starts without this process's
 * loader (no --import of tsx), whose per-import round trips would cost it as much as its modules.
 */
function startWorker<TRow>(file: string, input: unknown, onRow: (index: number, row: TRow) => void): { worker: Worker; finished: Promise<void> } {
  const worker = new Worker(file, { workerData: input, execArgv: [] });
  const finished = new Promise<void>((resolve, reject) => {
    let graded = false;
    worker.on("message", (message: TWorkerMessage<TRow>) => {
      if (message.kind === "row") onRow(message.index, message.row);
      else graded = true;
    });
    worker.once("error", reject);
    worker.once("exit", (code) => (graded ? resolve() : reject(new Error(`a grading worker stopped (exit code ${code}) before its episodes were graded`))));
  });
  // A worker stopped because the image could not be made is not a second failure to report.
  finished.catch(() => {});
  return { worker, finished };
}

/** `count` grading workers, started as soon as their code is bundled (gradingWorkerFile). */
export async function startWorkers<TRow>(count: number, input: unknown, onRow: (index: number, row: TRow) => void): Promise<{ worker: Worker; finished: Promise<void> }[]> {
  if (count < 1) return [];
  const file = await gradingWorkerFile();
  return Array.from({ length: count }, () => startWorker<TRow>(file, input, onRow));
}
