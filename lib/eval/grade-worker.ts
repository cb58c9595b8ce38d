// One grading worker: its own in-memory database opened from the grading image (sent once the parent
// has made it; the worker loads its modules meanwhile), the episodes no other grader has taken graded
// one after another, each row posted back as it is graded (gradeEpisodes).
import { once } from "node:events";
import { parentPort, workerData } from "node:worker_threads";
import { useDb as installDb } from "../db";
import { gradeUnits, type TEpisodeRow, type TWorkerInput } from "./grade-episodes";
import { gradingDb, openGradingImage } from "./episode-images";
import type { TWorkerImage, TWorkerMessage } from "./schedule-grading";

const input = workerData as TWorkerInput;
const post = (message: TWorkerMessage<TEpisodeRow>) => parentPort!.postMessage(message);
const [{ image }] = (await once(parentPort!, "message")) as [TWorkerImage];
const handle = await openGradingImage(image);
// The thread's process-wide client is its grading database: code that reaches for db() without a
// client (the job queue builds its sender on it) must not open the app's embedded database, once
// per thread, on one data directory.
installDb(handle);
try {
  await gradeUnits(gradingDb(handle.client), input.episodes, input.units, input.counters, input.llm, (unit, row) => post({ kind: "row", index: unit.index, row }));
} finally {
  await handle.close();
}
post({ kind: "done" });
