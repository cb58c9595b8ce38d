// What the draft check says, in words, about each problem: the trace shows it to a person and the
// model drafter is sent it to write the draft again; and quotations held to the passage verbatim.
import { describe, expect, it } from "vitest";
import {
  checkDraft,
  contentStems,
  describeDraftProblem,
  GROUNDING_THRESHOLD,
  passageSupport,
  sentencesOf,
  stem,
  wordsOf,
} from "./check-draft";

describe("describeDraftProblem", () => {
  it("names each problem with what it concerns", () => {
    expect(describeDraftProblem({ kind: "no_citation" })).toBe("no_citation");
    expect(describeDraftProblem({ kind: "citation_not_retrieved", citation: "note-44@1" })).toBe("citation_not_retrieved note-44@1");
    expect(describeDraftProblem({ kind: "unsupported_number", value: "60", written: "60" })).toBe("unsupported_number 60");
    expect(describeDraftProblem({ kind: "unsupported_number", value: "1 year", written: "a year" })).toBe(
      "unsupported_number 1 year (written “a year”)",
    );
    expect(describeDraftProblem({ kind: "unsupported_claim", sentence: "Always refund now [p@1].", citation: "p@1", share: 0.25 })).toBe(
      "unsupported_claim “Always refund now [p@1].” not supported by [p@1] (0.25 of its words found)",
    );
    expect(describeDraftProblem({ kind: "uncited_claim", sentence: "We refund 79 USD now." })).toBe(
      "uncited_claim “We refund 79 USD now.” speaks of money or a commitment without a citation",
    );
    expect(describeDraftProblem({ kind: "staff_only_text", sentence: "We check your history [p@1].", citation: "p@1" })).toBe(
      "staff_only_text “We check your history [p@1].” repeats a staff-only passage of [p@1]",
    );
    expect(describeDraftProblem({ kind: "off_topic", citation: "p@1", asked: ["never arrived", "report"] })).toBe(
      "off_topic [p@1] does not answer what the ticket asks about (“never arrived”, “report”)",
    );
  });

  it("quotes a sentence up to 80 characters, and cuts a longer one to 77 and an ellipsis", () => {
    const eighty = "x".repeat(80);
    expect(describeDraftProblem({ kind: "uncited_claim", sentence: eighty })).toBe(
      `uncited_claim “${eighty}” speaks of money or a commitment without a citation`,
    );
    const long = `${"y".repeat(77)}zzzz`;
    expect(describeDraftProblem({ kind: "uncited_claim", sentence: long })).toBe(
      `uncited_claim “${"y".repeat(77)}…” speaks of money or a commitment without a citation`,
    );
  });
});

describe("quotations in a cited sentence", () => {
  const retrieved = [{ citation: "returns@1", text: "Damaged electronics may be returned for a full refund within 30 days of delivery." }];
  const check = (draft: string) => checkDraft({ draft, retrieved, orderNumbers: [], orderTerms: [] });

  it("passes a quotation of three or more words found verbatim, whatever the quotation marks", () => {
    expect(check("Our policy says “returned for a full refund” within 30 days of delivery for damaged electronics [returns@1].")).toEqual(
      [],
    );
    expect(check('Our policy says "returned for a full refund" within 30 days of delivery for damaged electronics [returns@1].')).toEqual(
      [],
    );
  });

  it("refuses a quotation of three or more words the passage does not hold in that order, though its words are there", () => {
    const sentence = "Damaged electronics may be returned, “a full refund for” within 30 days of delivery [returns@1].";
    expect(check(sentence)).toEqual([{ kind: "unsupported_claim", sentence, citation: "returns@1", share: 1 }]);
  });

  it("passes a passage quoted whole that names the item ordered, or quotes a name in straight quotes itself", () => {
    const electronics = {
      citation: "returns-electronics@2",
      text: 'If you no longer want a phone, tablet or laptop, press "Start a return" within 30 days of delivery.',
    };
    const draft = `Our policy says: “${electronics.text}” [returns-electronics@2]`;
    // The item's own words are taken out before the claim is read, but a quotation is the passage's as written.
    expect(checkDraft({ draft, retrieved: [electronics], orderNumbers: [], orderTerms: ["Dana", "ORD-1", "Aurora tablet"] })).toEqual([]);
    // Changed by a word, the quotation is not the passage's.
    const altered = draft.replace("laptop,", "laptop or TV,");
    expect(checkDraft({ draft: altered, retrieved: [electronics], orderNumbers: [], orderTerms: ["Aurora tablet"] })).toMatchObject([
      { kind: "unsupported_claim" },
    ]);
  });

  it("holds a quotation in straight quotes to the passage too, and reads no quotation into punctuation", () => {
    const sentence = 'Damaged electronics may be returned, "a full refund for" within 30 days of delivery [returns@1].';
    expect(check(sentence)).toEqual([{ kind: "unsupported_claim", sentence, citation: "returns@1", share: 1 }]);
    expect(check("Damaged electronics may be returned for a full refund “—” within 30 days of delivery [returns@1].")).toEqual([]);
  });

  it("does not hold a two-word quotation to the passage's order", () => {
    expect(check("Damaged electronics may be returned for a “refund full” within 30 days of delivery [returns@1].")).toEqual([]);
  });
});

describe("words", () => {
  it("reads no words in a text of digits and signs, and drops the apostrophes that end a word", () => {
    expect(wordsOf("123 – 456 [return-policy-us@2]")).toEqual([]);
    expect(contentStems("79 % 30")).toEqual(new Set());
    expect(wordsOf("The customers'' items")).toEqual(["the", "customers", "items"]);
  });
});

describe("stems", () => {
  it("meets inflections of one word, and leaves a word alone where a suffix would leave under three letters", () => {
    expect(["refunded", "refunds", "refunding", "refund"].map(stem)).toEqual(["refund", "refund", "refund", "refund"]);
    expect(stem("bags")).toBe("bag");
    expect(["yes", "bed", "gas", "its"].map(stem)).toEqual(["yes", "bed", "gas", "its"]);
  });

  it("takes a possessive 's off the end only, and keeps a double s", () => {
    expect(stem("dana's")).toBe("dana");
    expect(stem("dana’s")).toBe("dana");
    expect(stem("o'sullivan")).toBe("o'sullivan");
    expect(stem("address")).toBe("address");
    expect(stem("glasses")).toBe("glass");
  });

  it("reads a plural possessive as its word", () => {
    expect(contentStems("the customers' orders")).toEqual(contentStems("the customers orders"));
  });
});

describe("what a sentence denies", () => {
  const passage = "Damaged electronics may be returned for a full refund within 30 days of delivery.";
  const check = (draft: string) =>
    checkDraft({ draft, retrieved: [{ citation: "returns@1", text: passage }], orderNumbers: [], orderTerms: [] });

  it("refuses a rule turned round by a contracted negation, straight or curly", () => {
    for (const draft of [
      "Damaged electronics isn't returned for a full refund within 30 days of delivery [returns@1].",
      "Damaged electronics aren’t returned for a full refund within 30 days of delivery [returns@1].",
    ]) {
      expect(check(draft).map((p) => p.kind)).toEqual(["unsupported_claim"]);
    }
  });

  it("reaches past stop words and currency codes to the word denied", () => {
    expect(
      check("Damaged electronics may not be returned for a full refund within 30 days of delivery [returns@1].").map((p) => p.kind),
    ).toEqual(["unsupported_claim"]);
    expect(
      check("Damaged electronics cannot then be returned for a full refund within 30 days of delivery [returns@1].").map((p) => p.kind),
    ).toEqual(["unsupported_claim"]);
    expect(
      check("Damaged electronics may not be USD returned for a full refund within 30 days of delivery [returns@1].").map((p) => p.kind),
    ).toEqual(["unsupported_claim"]);
  });

  it("passes a denial of something the passage does not speak of", () => {
    expect(
      check("Damaged electronics may be returned for a full refund within 30 days of delivery, no receipt needed [returns@1]."),
    ).toEqual([]);
  });

  it("passes a commitment word the passage makes itself", () => {
    const automatic = [{ citation: "paid@1", text: "Refunds are paid automatically to the original payment method." }];
    expect(
      checkDraft({
        draft: "Refunds are paid automatically to the original payment method [paid@1].",
        retrieved: automatic,
        orderNumbers: [],
        orderTerms: [],
      }),
    ).toEqual([]);
  });
});

describe("support at the threshold", () => {
  const passage = "Damaged electronics may be returned for a full refund within 30 days of delivery.";

  it("passes a sentence with exactly the threshold's share of content words found", () => {
    // Ten content words, seven of them in the passage.
    const support = passageSupport("Damaged electronics returned full refund within delivery zebra giraffe walrus.", passage);
    expect(support.share).toBe(GROUNDING_THRESHOLD);
    expect(support.wordsOk).toBe(true);
  });

  it("holds a quotation of exactly three words to the passage's order", () => {
    const retrieved = [{ citation: "returns@1", text: passage }];
    const draft = "Damaged electronics may be returned for “refund full a” within 30 days of delivery [returns@1].";
    expect(checkDraft({ draft, retrieved, orderNumbers: [], orderTerms: [] }).map((p) => p.kind)).toEqual(["unsupported_claim"]);
  });

  it("compares a quotation up to its punctuation", () => {
    const retrieved = [{ citation: "returns@1", text: passage }];
    expect(
      checkDraft({
        draft: "Our policy says “returned for a full refund,” within 30 days of delivery for damaged electronics [returns@1].",
        retrieved,
        orderNumbers: [],
        orderTerms: [],
      }),
    ).toEqual([]);
  });

  it("reports a sentence citing two passages with both citations and the better share", () => {
    const retrieved = [
      { citation: "returns@1", text: passage },
      { citation: "paid@1", text: "Refunds are paid to the original payment method." },
    ];
    const sentence = "Damaged electronics are always refunded in cash at any store [returns@1] [paid@1].";
    const [problem] = checkDraft({ draft: sentence, retrieved, orderNumbers: [], orderTerms: [] });
    expect(problem).toEqual({
      kind: "unsupported_claim",
      sentence,
      citation: "returns@1, paid@1",
      share: passageSupport(sentence, passage).share,
    });
    expect(passageSupport(sentence, passage).share).toBeGreaterThan(passageSupport(sentence, retrieved[1]!.text).share);
  });
});

describe("sentences", () => {
  it("keeps straight quotations whole", () => {
    expect(sentencesOf('Our policy says: "A. B." [x@1] Next one.')).toEqual(['Our policy says: "A. B." [x@1]', "Next one."]);
  });

  it("does not end a sentence inside a number or at a closing mark with nothing before it", () => {
    expect(sentencesOf("Version 1.2 is here.")).toEqual(["Version 1.2 is here."]);
    expect(sentencesOf("” Hi there.")).toEqual(["” Hi there."]);
  });

  it("keeps closing brackets and every citation after a full stop with the sentence", () => {
    expect(sentencesOf("Paid in 5 days (see below.) Thanks!")).toEqual(["Paid in 5 days (see below.)", "Thanks!"]);
    expect(sentencesOf("Refunds are paid. [x@1] [y@12] Thanks!")).toEqual(["Refunds are paid. [x@1] [y@12]", "Thanks!"]);
    expect(sentencesOf("Refunds are paid.[x@1] Thanks!")).toEqual(["Refunds are paid.[x@1]", "Thanks!"]);
  });

  it("drops what has neither a letter nor a digit nor a citation", () => {
    expect(sentencesOf("Hi. ... Bye.")).toEqual(["Hi.", "Bye."]);
    expect(sentencesOf("Hi. 42. Bye.")).toEqual(["Hi.", "42.", "Bye."]);
  });
});
