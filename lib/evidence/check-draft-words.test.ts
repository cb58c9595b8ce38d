// What the draft check says, in words, about each problem: the trace shows it to a person and the
// model drafter is sent it to write the draft again; and quotations held to the passage verbatim.
import { describe, expect, it } from "vitest";
import { checkDraft, describeDraftProblem } from "./check-draft";

describe("describeDraftProblem", () => {
  it("names each problem with what it concerns", () => {
    expect(describeDraftProblem({ kind: "no_citation" })).toBe("no_citation");
    expect(describeDraftProblem({ kind: "citation_not_retrieved", citation: "note-44@1" })).toBe("citation_not_retrieved note-44@1");
    expect(describeDraftProblem({ kind: "unsupported_number", value: "60" })).toBe("unsupported_number 60");
    expect(describeDraftProblem({ kind: "unsupported_claim", sentence: "Always refund now [p@1].", citation: "p@1", share: 0.25 })).toBe("unsupported_claim “Always refund now [p@1].” not supported by [p@1] (0.25 of its words found)");
    expect(describeDraftProblem({ kind: "uncited_claim", sentence: "We refund 79 USD now." })).toBe("uncited_claim “We refund 79 USD now.” speaks of money or a commitment without a citation");
  });

  it("quotes a sentence up to 80 characters, and cuts a longer one to 77 and an ellipsis", () => {
    const eighty = "x".repeat(80);
    expect(describeDraftProblem({ kind: "uncited_claim", sentence: eighty })).toBe(`uncited_claim “${eighty}” speaks of money or a commitment without a citation`);
    const long = `${"y".repeat(77)}zzzz`;
    expect(describeDraftProblem({ kind: "uncited_claim", sentence: long })).toBe(`uncited_claim “${"y".repeat(77)}…” speaks of money or a commitment without a citation`);
  });
});

describe("quotations in a cited sentence", () => {
  const retrieved = [{ citation: "returns@1", text: "Damaged electronics may be returned for a full refund within 30 days of delivery." }];
  const check = (draft: string) => checkDraft({ draft, retrieved, orderNumbers: [], orderTerms: [] });

  it("passes a quotation of three or more words found verbatim, whatever the quotation marks", () => {
    expect(check("Our policy says “returned for a full refund” within 30 days of delivery for damaged electronics [returns@1].")).toEqual([]);
    expect(check('Our policy says "returned for a full refund" within 30 days of delivery for damaged electronics [returns@1].')).toEqual([]);
  });

  it("refuses a quotation of three or more words the passage does not hold in that order, though its words are there", () => {
    const sentence = "Damaged electronics may be returned, “a full refund for” within 30 days of delivery [returns@1].";
    expect(check(sentence)).toEqual([{ kind: "unsupported_claim", sentence, citation: "returns@1", share: 1 }]);
  });

  it("does not hold a two-word quotation to the passage's order", () => {
    expect(check("Damaged electronics may be returned for a “refund full” within 30 days of delivery [returns@1].")).toEqual([]);
  });
});
