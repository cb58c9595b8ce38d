// The grading of an evaluation before publishing, in a process of its own (started by the worker's
// job through lib/documents/evaluate-grader.ts; not a command for people). It is sent two corpora
// over IPC – the installation's in effect, and with the version published – and grades each the way
// `npm run eval` grades the shipped corpus: the labelled questions and the episodes of eval/, on a
// fresh in-memory database seeded with the demo's world and holding exactly that corpus. It answers
// the outcomes, with its progress on the way, and touches no other database.
import { useDb, type DbHandle } from "../lib/db";
import type { TCorpusSnapshot, TGradingProgress, TGradingRequest, TGradingResult } from "../lib/contracts/policy-evaluation";
import { keepOnlyGradingCorpus, writeGradingCorpus } from "../lib/documents/evaluate-corpus";
import { SERVE_FLAG, type TGradingMessage } from "../lib/documents/evaluate-grader";
import { openGradingDatabase } from "../lib/eval/episode-images";
import { gradeCorpus, gradedWith, relabel } from "../lib/eval/grade-corpus";
import { loadQuestionSet } from "../lib/eval/grade-retrieval";
import { loadDataset } from "../lib/eval/load-dataset";
import { seedDemo } from "../prisma/seed/demo";

export const QUESTIONS_PATH = "eval/questions.jsonl";
export const EPISODES_PATH = "eval/episodes.jsonl";

/** A grading database with the demo's world and exactly `corpus` in effect. */
export function openCorpusWorld(corpus: TCorpusSnapshot): Promise<DbHandle> {
  return openGradingDatabase(async (client) => {
    await writeGradingCorpus(client, corpus);
    await seedDemo(client);
    await keepOnlyGradingCorpus(client, corpus);
  });
}

/**
 * Both corpora graded, one after the other (one database open at a time). `install` makes a grading
 * database the process's own before it is used, in a process of its own (so that nothing reaches for
 * the installation's); a test grading in its own process leaves it out.
 */
export async function gradeCorpora(
  request: TGradingRequest,
  onProgress: (progress: TGradingProgress) => void,
  install: (handle: DbHandle) => void = () => {},
): Promise<TGradingResult> {
  const [questions, dataset] = await Promise.all([loadQuestionSet(QUESTIONS_PATH), loadDataset(EPISODES_PATH)]);
  const after = relabel(questions, dataset, request.renamed);
  const outcomes = [];
  for (const [corpus, name, labels] of [
    [request.before, "before", { questions, dataset }],
    [request.after, "after", after],
  ] as const) {
    const database = await openCorpusWorld(corpus);
    try {
      install(database);
      outcomes.push(await gradeCorpus({ database, ...labels, onProgress: (done, total) => onProgress({ corpus: name, done, total }) }));
    } finally {
      await database.close();
    }
  }
  return { before: outcomes[0]!, after: outcomes[1]!, gradedWith: gradedWith(questions, dataset) };
}

/** The process's side of the IPC: one request, its progress and its answer, then exit. */
function serve(): void {
  // The worker that started it is gone (killed, or stopped): nobody waits for the answer.
  process.once("disconnect", () => process.exit(1));
  const send = (message: TGradingMessage) => new Promise<void>((done) => process.send!(message, () => done()));
  process.once("message", async (message: { kind: "grade"; request: TGradingRequest }) => {
    try {
      const result = await gradeCorpora(message.request, (progress) => void send({ kind: "progress", progress }), useDb);
      await send({ kind: "result", result });
      process.exit(0);
    } catch (error) {
      await send({ kind: "error", message: error instanceof Error ? error.message : String(error) });
      process.exit(1);
    }
  });
}

// Only when started to serve: a test imports gradeCorpora from here in a process that may have an IPC
// channel of its own (the test runner's).
if (process.argv.includes(SERVE_FLAG) && process.send) serve();
