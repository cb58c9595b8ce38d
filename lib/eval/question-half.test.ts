// The labelled questions split into a tuning half and a held-out half by id alone, so the split is
// reproducible and a new question moves no other between the halves.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseQuestionSet, questionHalf } from "./grade-retrieval";

describe("questionHalf", () => {
  it("puts a question in a half by the first byte of its id's sha256", () => {
    // sha256("de-ver-kosten") starts with byte 66, sha256("damaged-cracked-screen") with 132.
    expect(questionHalf("de-ver-kosten")).toBe("tuning");
    expect(questionHalf("damaged-cracked-screen")).toBe("held-out");
  });

  it("leaves each covered locale of the shipped set with questions in both halves", () => {
    const { questions } = parseQuestionSet(readFileSync("eval/questions.jsonl", "utf8"));
    for (const locale of ["en", "es", "de"]) {
      const ids = questions.filter((q) => q.locale === locale && !q.language).map((q) => q.id);
      const tuning = ids.filter((id) => questionHalf(id) === "tuning").length;
      expect(tuning, locale).toBeGreaterThan(ids.length / 4);
      expect(tuning, locale).toBeLessThan((ids.length * 3) / 4);
    }
  });
});
