// Retrieval on the labelled questions (eval/questions.jsonl), asked as the rule planner asks them:
// answerable ones find the passage that answers them in the context pack, unanswerable ones get no
// citation, and those in another language are abstained on for their language.
import { describe, expect, it } from "vitest";
import { describeRetrieval, gradeRetrieval, loadQuestionSet } from "./grade-retrieval";
import { seedDemo } from "../../prisma/seed/demo";

describe("retrieval on the labelled questions", () => {
  it("recalls at least 90% of answerable questions within three passages and cites nothing for the rest", async () => {
    const set = await loadQuestionSet("eval/questions.jsonl");
    expect(set.questions.length).toBeGreaterThanOrEqual(40);
    expect(set.questions.filter((q) => q.language).length).toBeGreaterThanOrEqual(5);
    const score = await gradeRetrieval(set, { world: seedDemo });
    expect(score.recallAt3, describeRetrieval(score).join("\n")).toBeGreaterThanOrEqual(0.9);
    expect(score.unanswerableCited).toBe(0);
    expect(score.abstentionPrecision).toBe(1);
    const languages = score.rows.filter((r) => set.questions.find((q) => q.id === r.id)!.language);
    expect(languages.map((r) => r.abstainReason)).toEqual(languages.map(() => "unsupported_language"));
  }, 120_000);
});
