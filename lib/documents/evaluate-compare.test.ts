import { describe, expect, it } from "vitest";
import type { TCorpusOutcomes, TGradingResult, TQuestionOutcome } from "../contracts/policy-evaluation";
import { compareGradings } from "./evaluate-compare";

const q = (id: string, cited: string[], passed: boolean, over: Partial<TQuestionOutcome> = {}): TQuestionOutcome => ({
  id,
  answerable: true,
  expected: "support-sla@1",
  cited,
  abstainReason: cited.length ? null : "no_approved_evidence",
  passed,
  ...over,
});
const e = (id: string, passed: boolean) => ({ id, title: `Episode ${id}`, passed, explanation: passed ? null : `${id}: path differs` });
const graded = (before: TCorpusOutcomes, after: TCorpusOutcomes): TGradingResult => ({
  before,
  after,
  gradedWith: { questionSetVersion: "q1", questionsHash: "qh", datasetVersion: "e1", datasetHash: "eh", graderVersion: "g1" },
});
const renamed = { from: "support-sla@1", to: "support-sla@2" };

describe("compareGradings", () => {
  it("reads the replaced version as the new one: the same answer from support-sla@2 is kept, not moved", () => {
    const { results, regressions } = compareGradings(
      graded(
        { questions: [q("a", ["support-sla@1"], true)], episodes: [e("x", true)] },
        { questions: [q("a", ["support-sla@2"], true)], episodes: [e("x", true)] },
      ),
      renamed,
    );
    expect(regressions).toBe(0);
    expect([
      results.questions.gained,
      results.questions.lost,
      results.questions.moved,
      results.episodes.toFail,
      results.episodes.toPass,
    ]).toEqual([[], [], [], [], []]);
    expect(results.questions).toMatchObject({ total: 1, passedBefore: 1, passedAfter: 1 });
  });

  it("sorts each change once: lost, gained or moved, and each flip by its side; regressions are the lost and the flips to fail", () => {
    const before: TCorpusOutcomes = {
      questions: [
        q("lost", ["support-sla@1"], true),
        q("gained", [], false),
        q("moved", ["support-sla@1", "return-policy-us@2"], true),
        q("reordered", ["return-policy-us@2", "support-sla@1"], true),
        q("same-set", ["support-sla@1", "return-policy-us@2"], true),
        q("unanswerable-cited", [], true, { answerable: false, expected: null }),
      ],
      episodes: [e("to-fail", true), e("to-pass", false), e("still", true)],
    };
    const after: TCorpusOutcomes = {
      questions: [
        q("lost", [], false),
        q("gained", ["support-sla@2"], true),
        q("moved", ["support-sla@2"], true),
        q("reordered", ["support-sla@2", "return-policy-us@2"], true),
        q("same-set", ["support-sla@2", "return-policy-us@2"], true),
        q("unanswerable-cited", ["return-policy-us@2"], false, { answerable: false, expected: null }),
      ],
      episodes: [e("to-fail", false), e("to-pass", true), e("still", true)],
    };
    const { results, regressions } = compareGradings(graded(before, after), renamed);
    expect(results.questions.lost.map((c) => c.id)).toEqual(["lost", "unanswerable-cited"]);
    expect(results.questions.gained.map((c) => c.id)).toEqual(["gained"]);
    expect(results.questions.moved.map((c) => c.id)).toEqual(["moved", "reordered"]);
    // Citations after are shown as they compare: the new version under the name it replaces.
    expect(results.questions.moved[0]).toMatchObject({ before: ["support-sla@1", "return-policy-us@2"], after: ["support-sla@1"] });
    expect(results.questions.lost[0]).toMatchObject({ before: ["support-sla@1"], after: [], abstainAfter: "no_approved_evidence" });
    expect(results.episodes.toFail).toEqual([{ id: "to-fail", title: "Episode to-fail", explanation: "to-fail: path differs" }]);
    expect(results.episodes.toPass).toEqual([{ id: "to-pass", title: "Episode to-pass", explanation: "to-pass: path differs" }]);
    expect(results.episodes).toMatchObject({ total: 3, passedBefore: 2, passedAfter: 2 });
    expect(regressions).toBe(3);
  });

  it("compares citations as they are when the version is a document's first (nothing renamed)", () => {
    const { results } = compareGradings(
      graded({ questions: [q("a", ["support-sla@1"], true)], episodes: [] }, { questions: [q("a", ["gift-cards@1"], true)], episodes: [] }),
      null,
    );
    expect(results.questions.moved).toEqual([expect.objectContaining({ id: "a", before: ["support-sla@1"], after: ["gift-cards@1"] })]);
  });

  it("refuses a grading whose corpora were not graded on the same items", () => {
    expect(() => compareGradings(graded({ questions: [q("a", [], false)], episodes: [] }, { questions: [], episodes: [] }), null)).toThrow(
      /question a/,
    );
  });
});
