import { describe, expect, it } from "vitest";
import { rankPassages, searchTerms, type TRetrieval } from "./retrieve-passages";

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
    expect(searchTerms("¿Cuánto tarda el envío y dónde lo dejo?")).toEqual(["tarda", "el", "envío", "y", "lo", "dejo"]);
    expect(searchTerms("Wie lange dauert der Versand?")).toEqual(["dauert", "der", "versand"]);
  });
});
