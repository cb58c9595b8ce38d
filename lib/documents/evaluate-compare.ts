// What publishing a version changes, from its grading (lib/contracts/policy-evaluation.ts): the
// questions that gain or lose their answer, those cited otherwise with the same outcome, and the
// episodes that flip. Pure. Citations are compared with the replaced version read as the new one
// (`renamed`): a question answered by support-sla@1 before and by support-sla@2 after kept its answer.
import {
  regressionCount,
  type TCorpusOutcomes,
  type TEpisodeFlip,
  type TEvaluationResults,
  type TGradingRequest,
  type TGradingResult,
  type TQuestionChange,
  type TQuestionOutcome,
} from "../contracts/policy-evaluation";

/** The citations as they compare: each once, the first (the best answer) apart from the rest. */
function sameCitations(a: readonly string[], b: readonly string[]): boolean {
  if (a[0] !== b[0]) return false;
  const rest = new Set(a);
  return rest.size === new Set(b).size && b.every((c) => rest.has(c));
}

function change(before: TQuestionOutcome, after: TQuestionOutcome, undo: (c: string) => string): TQuestionChange {
  return {
    id: before.id,
    answerable: before.answerable,
    expected: before.expected,
    before: before.cited,
    after: after.cited.map(undo),
    abstainBefore: before.abstainReason,
    abstainAfter: after.abstainReason,
  };
}

function compareQuestions(
  before: TCorpusOutcomes,
  after: TCorpusOutcomes,
  renamed: TGradingRequest["renamed"],
): TEvaluationResults["questions"] {
  const undo = (c: string) => (renamed && c === renamed.to ? renamed.from : c);
  const afterById = new Map(after.questions.map((q) => [q.id, q]));
  const out: TEvaluationResults["questions"] = {
    total: before.questions.length,
    passedBefore: before.questions.filter((q) => q.passed).length,
    passedAfter: after.questions.filter((q) => q.passed).length,
    gained: [],
    lost: [],
    moved: [],
  };
  for (const b of before.questions) {
    const a = afterById.get(b.id);
    if (!a) throw new Error(`the grading after publishing has no outcome for question ${b.id}`);
    const c = change(b, a, undo);
    if (b.passed && !a.passed) out.lost.push(c);
    else if (!b.passed && a.passed) out.gained.push(c);
    else if (!sameCitations(c.before, c.after)) out.moved.push(c);
  }
  return out;
}

function compareEpisodes(before: TCorpusOutcomes, after: TCorpusOutcomes): TEvaluationResults["episodes"] {
  const afterById = new Map(after.episodes.map((e) => [e.id, e]));
  const toFail: TEpisodeFlip[] = [];
  const toPass: TEpisodeFlip[] = [];
  for (const b of before.episodes) {
    const a = afterById.get(b.id);
    if (!a) throw new Error(`the grading after publishing has no outcome for episode ${b.id}`);
    // Each flip says what differs where the episode fails: after publishing, or before it.
    if (b.passed && !a.passed) toFail.push({ id: a.id, title: a.title, explanation: a.explanation });
    else if (!b.passed && a.passed) toPass.push({ id: b.id, title: b.title, explanation: b.explanation });
  }
  return {
    total: before.episodes.length,
    passedBefore: before.episodes.filter((e) => e.passed).length,
    passedAfter: after.episodes.filter((e) => e.passed).length,
    toFail,
    toPass,
  };
}

/** The comparison an evaluation stores, and its count of regressions (what must be acknowledged). */
export function compareGradings(
  graded: TGradingResult,
  renamed: TGradingRequest["renamed"],
): { results: TEvaluationResults; regressions: number } {
  const results: TEvaluationResults = {
    questions: compareQuestions(graded.before, graded.after, renamed),
    episodes: compareEpisodes(graded.before, graded.after),
    renamed,
    gradedWith: graded.gradedWith,
  };
  return { results, regressions: regressionCount(results) };
}
