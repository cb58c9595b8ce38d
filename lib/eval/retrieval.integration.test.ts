// Retrieval on the labelled questions (eval/questions.jsonl), asked as the rule planner asks them,
// per locale: the figures may not fall below what retrieval reaches today (FLOORS), every question in
// a language no document is written in is abstained on for its language, and no locale's answer mixes
// in another's documents. The targets are higher (recall@3 0.9 and abstention precision 0.95 per
// locale, no citation for an unanswerable question; eval/README.md says where retrieval stands): a
// change that reaches more raises its floor here in the same commit.
import { describe, expect, it } from "vitest";
import { describeRetrieval, gradeRetrieval, loadQuestionSet } from "./grade-retrieval";
import { seedDemo } from "../../prisma/seed/demo";

/** What each covered locale reaches at least, and the unanswerable questions it may cite at most. */
const FLOORS: Record<string, { recallAt3: number; abstentionPrecision: number; unanswerableCited: number }> = {
  en: { recallAt3: 0.75, abstentionPrecision: 0.31, unanswerableCited: 9 },
  es: { recallAt3: 0.79, abstentionPrecision: 0.4, unanswerableCited: 0 },
  de: { recallAt3: 0.63, abstentionPrecision: 0.33, unanswerableCited: 0 },
};

describe("retrieval on the labelled questions", () => {
  it("holds each locale's figures at their floors and abstains on every other language for its language", async () => {
    const set = await loadQuestionSet("eval/questions.jsonl");
    expect(set.questions.length).toBeGreaterThanOrEqual(200);
    expect(set.questions.filter((q) => q.language).length).toBeGreaterThanOrEqual(5);
    const score = await gradeRetrieval(set, { world: seedDemo });
    const report = describeRetrieval(score).join("\n");
    for (const [locale, floor] of Object.entries(FLOORS)) {
      const figures = score.byLocale[locale]!;
      expect(figures.recallAt3, `${locale}\n${report}`).toBeGreaterThanOrEqual(floor.recallAt3);
      expect(figures.abstentionPrecision, `${locale}\n${report}`).toBeGreaterThanOrEqual(floor.abstentionPrecision);
      expect(figures.unanswerableCited, `${locale}\n${report}`).toBeLessThanOrEqual(floor.unanswerableCited);
    }
    const languages = score.rows.filter((r) => set.questions.find((q) => q.id === r.id)!.language);
    expect(languages.map((r) => [r.id, r.abstainReason])).toEqual(languages.map((r) => [r.id, "unsupported_language"]));
    // Every citation is of a document in the question's own language (Spanish keys end -es, German -de).
    for (const r of score.rows.filter((row) => row.locale === "es" || row.locale === "de"))
      expect(r.cited.filter((c) => !c.split("@")[0]!.endsWith(`-${r.locale}`)), r.id).toEqual([]);
  }, 180_000);
});
