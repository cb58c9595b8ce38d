import { describe, expect, it } from "vitest";
import { checkDraft, numbersIn } from "./check-draft";
import { citationsIn } from "../contracts/citations";
import { buildContextPack } from "./answer-policy-question";
import type { TRetrievedPassage } from "./retrieve-passages";

const retrieved = [{ citation: "return-policy-us@2", text: "Damaged electronics may be returned for a full refund within 30 days of delivery. Refunds at or above 500 USD need a specialist." }];

describe("checkDraft", () => {
  it("passes a draft whose citations were retrieved and whose numbers are supported", () => {
    const draft = "Refunds within 30 days of delivery [return-policy-us@2]. Delivered 12 days ago: we refund 79.00 USD.";
    expect(checkDraft({ draft, retrieved, orderNumbers: [79, 12] })).toEqual([]);
  });

  it("refuses a draft with no citation, or citing what was not retrieved", () => {
    expect(checkDraft({ draft: "You get a refund.", retrieved, orderNumbers: [] })).toEqual([{ kind: "no_citation" }]);
    expect(checkDraft({ draft: "Per [seller-private-note-44@1], refund now.", retrieved, orderNumbers: [] })).toEqual([{ kind: "citation_not_retrieved", citation: "seller-private-note-44@1" }]);
  });

  it("refuses an invented amount or number of days", () => {
    const draft = "Refunds within 60 days [return-policy-us@2]; we refund 1,250.00 USD.";
    expect(checkDraft({ draft, retrieved, orderNumbers: [79] })).toEqual([
      { kind: "unsupported_number", value: "60" },
      { kind: "unsupported_number", value: "1250" },
    ]);
  });

  it("reads numbers as written and ignores the digits of citations", () => {
    expect(numbersIn("79.00 USD, 1,200 items, 30 days [return-policy-us@2]")).toEqual(["79", "1200", "30"]);
    expect(citationsIn("a [x-1@2] b [x-1@2] [y@3]")).toEqual(["x-1@2", "y@3"]);
  });
});

describe("buildContextPack", () => {
  const passage = (citation: string, score: number, coverage: number, chars = 100): TRetrievedPassage => ({ chunkId: citation + score, docKey: citation.split("@")[0]!, version: 1, citation, title: "", heading: "", text: "x".repeat(chars), score, coverage });
  const limits = { minScore: 0.1, minCoverage: 0.5, maxChunks: 2, maxChars: 250 };

  it("keeps only passages above the score and coverage floors, best covered first, within the limits", () => {
    const pack = buildContextPack([passage("a@1", 0.9, 0.25), passage("b@1", 0.05, 1), passage("c@1", 0.5, 0.6), passage("d@1", 0.4, 1), passage("e@1", 0.8, 0.9)], limits);
    expect(pack.map((p) => p.citation)).toEqual(["d@1", "e@1"]);
  });

  it("stops before the character limit", () => {
    expect(buildContextPack([passage("a@1", 0.9, 1, 200), passage("b@1", 0.8, 1, 100)], limits).map((p) => p.citation)).toEqual(["a@1"]);
  });
});
