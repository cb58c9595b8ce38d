import { describe, expect, it } from "vitest";
import { rankPassages, searchTerms, withEnoughTerms, type TRetrieval } from "./retrieve-passages";

type TFound = TRetrieval["passages"][number];

const found = (citation: string, words: { inText?: string[]; inHeading?: string[] }, score = 0.1): TFound => ({
  chunkId: citation,
  docKey: citation.split("@")[0]!,
  version: 1,
  citation,
  title: "",
  heading: "",
  text: "x",
  locale: "en",
  audience: "customer",
  score,
  coverage: 0,
  matched: [...new Set([...(words.inText ?? []), ...(words.inHeading ?? [])])],
  inHeading: words.inHeading ?? [],
  inText: words.inText ?? [],
});

const retrieval = (passages: TFound[], terms: Record<string, number>): TRetrieval => ({
  passages,
  terms: Object.entries(terms).map(([lexeme, passages]) => ({ lexeme, passages })),
  corpusSize: 100,
});

describe("rankPassages", () => {
  it("ranks the passage that states the question's words above one whose document's title only names them", () => {
    // A document titled with the question's words ("refund", "payment", "method") holds them in every
    // passage's heading; the passage that answers states them in its text.
    const ranked = rankPassages(
      retrieval(
        [
          found("titled@1", { inHeading: ["refund", "payment", "method"], inText: ["day"] }),
          found("answers@1", { inText: ["refund", "payment", "method", "approv"] }),
        ],
        { refund: 60, payment: 20, method: 15, approv: 40, day: 80 },
      ),
    );
    expect(ranked.map((p) => p.citation)).toEqual(["answers@1", "titled@1"]);
    // Coverage – what the context pack admits on – still counts a word wherever the passage holds it.
    expect(ranked[1]!.coverage).toBeGreaterThan(0.5);
  });

  it("puts the passage whose heading also holds the question first when the text covers it equally", () => {
    const ranked = rankPassages(
      retrieval([found("a@1", { inText: ["gift", "card"] }), found("b@1", { inText: ["gift", "card"], inHeading: ["gift", "card"] })], {
        gift: 10,
        card: 10,
      }),
    );
    expect(ranked.map((p) => p.citation)).toEqual(["b@1", "a@1"]);
  });
});

describe("searchTerms", () => {
  it("leaves out the words a question is asked with, in each language, and keeps what it is about", () => {
    expect(searchTerms("How much does it cost and how long will it take?")).toEqual(["it", "cost", "and", "take"]);
    expect(searchTerms("¿Cuánto tarda el envío y dónde lo dejo?", "es")).toEqual(["el", "envío", "y", "lo"]);
    expect(searchTerms("Wie lange dauert der Versand?", "de")).toEqual(["der", "versand"]);
    expect(searchTerms("It arrived, what happens now? Someone already said it is fine")).toEqual(["it", "arrived", "is"]);
  });

  it("asks in the policies' words for a customer's word the language's thesaurus knows, and only in that language", () => {
    expect(searchTerms("Can I exchange the hoodie by swapping?", "en")).toEqual(["i", "exchange", "the", "clothing", "by"]);
    expect(searchTerms("¿Es gratis devolver la nevera?", "es")).toEqual(["es", "gratis", "devolver", "la", "electrodoméstico"]);
    expect(searchTerms("Wann kommt meine Rückerstattung?", "de")).toEqual(["meine", "erstattung"]);
    expect(searchTerms("swapping hoodie", "es")).toEqual(["swapping", "hoodie"]);
    // A word that is an Object's own property name is a word like any other.
    expect(searchTerms("constructor toString", "en")).toEqual(["constructor", "tostring"]);
  });
});

describe("withEnoughTerms", () => {
  it("keeps a passage only when it holds enough of the question's weighing terms, whatever the one it shares weighs", () => {
    const kept = withEnoughTerms(
      retrieval(
        [
          found("one-rare-word@1", { inText: ["hire"] }),
          found("two-of-four@1", { inText: ["deliveri", "late"] }),
          found("three-of-four@1", { inText: ["deliveri", "late", "refund"] }),
        ],
        { hire: 1, deliveri: 30, late: 10, refund: 60 },
      ),
    );
    // Four weighing terms: 0.6 of them, rounded up, is 3 (and never more than 3).
    expect(kept.passages.map((p) => p.citation)).toEqual(["three-of-four@1"]);
  });

  it("asks no more than the question has: one weighing term is enough for a one-word question, numbers no passage holds do not count", () => {
    const kept = withEnoughTerms(retrieval([found("answers@1", { inText: ["warranti"] })], { warranti: 10, "1042": 0 }));
    expect(kept.passages.map((p) => p.citation)).toEqual(["answers@1"]);
  });
});
