// The words of an evaluation before publishing, shared by the parts that meet in it: the documents
// part asks for a grading and compares (lib/documents/evaluate-*.ts), the eval part grades a corpus
// (lib/eval/grade-corpus.ts), a script grades in a process of its own (scripts/grade-corpora.ts), and
// the documents page shows the comparison.
import type { PassageAudience } from "../../generated/prisma/enums";

/** What a policy version says: everything its content hash and its passages come from (the
 * documents store writes it; a grading reads it back). */
export interface TVersionContent {
  title: string;
  section: string;
  body: string;
  source: string;
  locale: string;
  owner: string | null;
  contentHash: string;
  passages: readonly { heading: string; text: string; audience: PassageAudience }[];
}

/** One version of the corpus as graded: its content and its passages as the installation holds them. */
export interface TCorpusVersion extends TVersionContent {
  docKey: string;
  version: number;
}

/** A corpus: the versions in effect, and their corpus hash (lib/policy/corpus-hash.ts). */
export interface TCorpusSnapshot {
  hash: string;
  versions: TCorpusVersion[];
}

/**
 * What a grading is asked: the corpus in effect and the corpus with the version published. `renamed`
 * is the citation the version replaces and its own ("support-sla@1" → "support-sla@2"), or null
 * for a document's first version: labels naming the one are read as naming the other after.
 */
export interface TGradingRequest {
  before: TCorpusSnapshot;
  after: TCorpusSnapshot;
  renamed: { from: string; to: string } | null;
}

/** A labelled question's outcome on one corpus. */
export interface TQuestionOutcome {
  id: string;
  answerable: boolean;
  /** The citation that answers it (answerable questions), as labelled for this corpus. */
  expected: string | null;
  cited: string[];
  abstainReason: string | null;
  passed: boolean;
}

/** An episode's outcome on one corpus; `explanation` says what differed when it failed. */
export interface TEpisodeOutcome {
  id: string;
  title: string;
  passed: boolean;
  explanation: string | null;
}

export interface TCorpusOutcomes {
  questions: TQuestionOutcome[];
  episodes: TEpisodeOutcome[];
}

/** What was graded, and by what: the two datasets by version and content hash, and the grader. */
export interface TGradedWith {
  questionSetVersion: string;
  questionsHash: string;
  datasetVersion: string;
  datasetHash: string;
  graderVersion: string;
}

export interface TGradingResult {
  before: TCorpusOutcomes;
  after: TCorpusOutcomes;
  gradedWith: TGradedWith;
}

/** How far a grading has gone: the corpus being graded, and items (questions, then episodes) done of all. */
export interface TGradingProgress {
  corpus: "before" | "after";
  done: number;
  total: number;
}

/** Grades both corpora of a request, telling `onProgress` as it goes. */
export type TCorpusGrader = (request: TGradingRequest, onProgress: (progress: TGradingProgress) => void) => Promise<TGradingResult>;

/** A question whose outcome changed: its citations before and after (after's read with `renamed` undone). */
export interface TQuestionChange {
  id: string;
  answerable: boolean;
  expected: string | null;
  before: string[];
  after: string[];
  abstainBefore: string | null;
  abstainAfter: string | null;
}

/** An episode that flipped, with what differed on the side where it fails. */
export interface TEpisodeFlip {
  id: string;
  title: string;
  explanation: string | null;
}

/**
 * What publishing the version changes, as an evaluation found it. Regressions – what must be
 * acknowledged by name before a publish – are the answers lost (a question that passed fails: an
 * answerable one's citation moved away from its context, or an unanswerable one got a citation) and
 * the episodes flipped to fail. Moved citations that keep the answer, gains and fixes are shown, and
 * hold nothing back.
 */
export interface TEvaluationResults {
  questions: {
    total: number;
    passedBefore: number;
    passedAfter: number;
    gained: TQuestionChange[];
    lost: TQuestionChange[];
    /** Cited otherwise, passing or failing as before. */
    moved: TQuestionChange[];
  };
  episodes: {
    total: number;
    passedBefore: number;
    passedAfter: number;
    toFail: TEpisodeFlip[];
    toPass: TEpisodeFlip[];
  };
  renamed: TGradingRequest["renamed"];
  gradedWith: TGradedWith;
}

/** How many regressions the results hold. */
export function regressionCount(results: Pick<TEvaluationResults, "questions" | "episodes">): number {
  return results.questions.lost.length + results.episodes.toFail.length;
}
