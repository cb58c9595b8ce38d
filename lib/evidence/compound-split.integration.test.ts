// German writes compounds as one word the stemmer does not split: a question about "Versandkosten"
// must meet a passage about "Versand" and its "Kosten", but only when both parts are words the
// documents use, and only in a language that compounds.
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { writeTestVersion } from "../../testing/policy-corpus";
import { compoundCandidates, searchPassages } from "./retrieve-passages";
import { answerPolicyQuestion } from "./answer-policy-question";

const testDb = useTestDb();

const doc = (key: string, locale: string, body: string) =>
  `---\nkey: ${key}\ntitle: "${key}"\nlocale: ${locale}\nowner: Shipping\n---\n${body}\n`;

beforeAll(async () => {
  const { client } = testDb();
  await writeTestVersion(client, {
    markdown: doc("versand-test", "de", "## Versand\n\nDer Versand ist ab 50 Euro kostenlos, darunter betragen die Kosten 4,90 Euro."),
  });
  await writeTestVersion(client, { markdown: doc("shipping-test", "en", "## Shipping\n\nShipping costs 4.90 dollars below 50 dollars.") });
});

describe("compound words", () => {
  it("cuts a word into parts of four letters or more, the most even cuts first", () => {
    expect(compoundCandidates("abcdefgh").map((c) => [c.head, c.tail])).toEqual([["abcd", "efgh"]]);
    expect(compoundCandidates("abcdefg")).toEqual([]);
    const cuts = compoundCandidates("versandkosten").sort((a, b) => a.rank - b.rank);
    expect(cuts.map((c) => c.head)).toEqual(["versan", "versand", "versa", "versandk", "vers", "versandko"]);
  });

  it("asks a German compound no passage holds as its two parts the passages hold", async () => {
    const { client } = testDb();
    const found = await searchPassages(client, { question: "Versandkosten", locale: "de" });
    expect(found.terms.map((t) => t.lexeme).sort()).toEqual(["kost", "versand"]);
    expect(found.passages.map((p) => [p.docKey, p.matched])).toEqual([["versand-test", ["kost", "versand"]]]);
    expect(await answerPolicyQuestion(client, { question: "Wie hoch sind die Versandkosten?", locale: "de" })).toMatchObject({
      status: "grounded",
      citations: ["versand-test@1"],
    });
  });

  it("keeps a compound whole when a part is no word of the documents, and never splits in English", async () => {
    const { client } = testDb();
    const unknownPart = await searchPassages(client, { question: "Versandgebühr", locale: "de" });
    expect(unknownPart.passages).toEqual([]);
    expect((await searchPassages(client, { question: "shippingcosts", locale: "en" })).passages).toEqual([]);
  });
});
