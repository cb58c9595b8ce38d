// One policy corpus graded the way `npm run eval` grades the shipped one: the labelled questions
// (grade-retrieval.ts) and the episodes (grade-episodes.ts) on one grading database, whose world the
// caller wrote (the demo's, with the corpus under evaluation in place of its documents). An
// evaluation before publishing grades two corpora this way – the one in effect and the one with the
// version published – and compares them (lib/documents/evaluate-compare.ts). The shapes are in
// lib/contracts/policy-evaluation.ts.
import type { TCorpusOutcomes, TGradedWith, TGradingRequest } from "../contracts/policy-evaluation";
import type { DbHandle } from "../db";
import type { TDataset } from "./episode";
import { gradeEpisodes, GRADER_VERSION } from "./grade-episodes";
import { gradeRetrieval, type TQuestionSet } from "./grade-retrieval";

export function gradedWith(questions: TQuestionSet, dataset: TDataset): TGradedWith {
  return {
    questionSetVersion: questions.version,
    questionsHash: questions.hash,
    datasetVersion: dataset.version,
    datasetHash: dataset.hash,
    graderVersion: GRADER_VERSION,
  };
}

/**
 * The labels of a corpus where `from` (a document version's citation, "support-sla@1") is replaced by
 * `to` ("support-sla@2"): the questions and episodes that expect the version a new one replaces
 * expect the new one, so an answer the new version still gives counts as kept, not lost.
 */
export function relabel(questions: TQuestionSet, dataset: TDataset, renamed: TGradingRequest["renamed"]): { questions: TQuestionSet; dataset: TDataset } {
  if (!renamed) return { questions, dataset };
  const swap = (citation: string) => (citation === renamed.from ? renamed.to : citation);
  return {
    questions: { ...questions, questions: questions.questions.map((q) => (q.cites ? { ...q, cites: swap(q.cites) } : q)) },
    dataset: {
      ...dataset,
      episodes: dataset.episodes.map((e) => ({ ...e, expect: { ...e.expect, citations: e.expect.citations.map(swap) } })),
    },
  };
}

/**
 * Grades the questions, then the episodes, on `database` (opened by the caller with its world, and
 * closed by it): one thread, one database, so the rows are the dataset's order. `onProgress` hears
 * each item graded, questions first.
 */
export async function gradeCorpus(input: {
  database: DbHandle;
  questions: TQuestionSet;
  dataset: TDataset;
  onProgress?: (done: number, total: number) => void;
}): Promise<TCorpusOutcomes> {
  const { database, questions, dataset } = input;
  const total = questions.questions.length + dataset.episodes.length;
  const retrieval = await gradeRetrieval(questions, { world: async () => {}, database });
  input.onProgress?.(questions.questions.length, total);
  const rows = await gradeEpisodes(dataset, {
    world: async () => {},
    database,
    workers: 1,
    onProgress: (done) => input.onProgress?.(questions.questions.length + done, total),
  });
  const titles = new Map(dataset.episodes.map((e) => [e.id, e.title]));
  return {
    questions: retrieval.rows,
    episodes: rows.map((r) => ({ id: r.episodeId, title: titles.get(r.episodeId) ?? r.episodeId, passed: r.passed, explanation: r.explanation })),
  };
}
