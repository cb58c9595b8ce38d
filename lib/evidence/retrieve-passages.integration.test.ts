// Retrieval reads one language's documents in effect, and nothing else: not another language's, not a
// draft, a version in review, a retired version or one scheduled for later; and it says which
// passages are for staff only.
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { writeTestVersion } from "../../testing/policy-corpus";
import { retrievePassages } from "./retrieve-passages";
import { answerPolicyQuestion } from "./answer-policy-question";
import { coveredLanguages, isCoveredLanguage } from "./language";

const testDb = useTestDb();

const doc = (key: string, locale: string, body: string, title = `${key} title`) =>
  `---\nkey: ${key}\ntitle: "${title}"\nlocale: ${locale}\nowner: Returns\n---\n${body}\n`;

const RETURNS_EN = doc(
  "returns-shoes",
  "en",
  "## Returning shoes\n\nUnworn shoes may be returned within 60 days of delivery for a refund.\n\n## Worn shoes {audience=staff}\n\nWorn shoes returned are checked by the returns desk before any refund.",
  "Shoe returns",
);
const RETURNS_ES = doc(
  "devoluciones-zapatos",
  "es",
  "## Devolver zapatos\n\nLos zapatos sin usar se pueden devolver en un plazo de 60 días desde la entrega para obtener un reembolso.",
  "Devoluciones de zapatos",
);
const RETURNS_ES_MX = doc(
  "devoluciones-zapatos-mx",
  "es-MX",
  "## Devolver zapatos\n\nLos zapatos sin estrenar se devuelven con reembolso completo.",
  "Devoluciones México",
);

/** A key whose every state is present: only version 2 is in effect. */
const umbrella = (words: string) => doc("umbrella-care", "en", `## Umbrellas\n\nUmbrella repairs ${words}.`, "Umbrella care");

beforeAll(async () => {
  const { client } = testDb();
  await writeTestVersion(client, { markdown: RETURNS_EN });
  await writeTestVersion(client, { markdown: RETURNS_ES });
  await writeTestVersion(client, { markdown: RETURNS_ES_MX });
  await writeTestVersion(client, { markdown: umbrella("retiredwords are free"), version: 1, state: "retired" });
  await writeTestVersion(client, { markdown: umbrella("currentwords take a week"), version: 2, state: "published" });
  await writeTestVersion(client, { markdown: umbrella("scheduledwords take a day"), version: 3, state: "scheduled" });
  await writeTestVersion(client, { markdown: umbrella("reviewwords cost nothing"), version: 4, state: "in_review" });
  await writeTestVersion(client, { markdown: umbrella("draftwords are instant"), version: 5, state: "draft" });
  await writeTestVersion(client, { markdown: doc("kite-care", "en", "## Kites\n\nKite repairs scheduledwords only."), state: "scheduled" });
});

describe("retrieval in one language", () => {
  it("searches only the asked language's documents, stemmed in that language, whatever the region", async () => {
    const { client } = testDb();
    const es = await retrievePassages(client, { question: "¿Puedo devolver unos zapatos? ¿Cuál es el plazo?", locale: "es" });
    expect(new Set(es.map((p) => p.docKey))).toEqual(new Set(["devoluciones-zapatos", "devoluciones-zapatos-mx"]));
    expect(es.every((p) => p.locale.startsWith("es"))).toBe(true);
    // "devolver" and "devuelven", "zapatos" and "zapato": Spanish stems meet.
    expect((await retrievePassages(client, { question: "devuelven zapato", locale: "es-ES" })).map((p) => p.docKey)).toContain(
      "devoluciones-zapatos",
    );

    const en = await retrievePassages(client, {
      question: "Can I return my shoes? What is the deadline for returning them?",
      locale: "en",
    });
    expect(en.length).toBeGreaterThan(0);
    expect(en.every((p) => p.locale === "en")).toBe(true);
    // The same Spanish words asked in English find nothing: the languages are never mixed.
    expect(await retrievePassages(client, { question: "devolver zapatos plazo", locale: "en" })).toEqual([]);
    expect(await retrievePassages(client, { question: "return shoes", locale: "es" })).toEqual([]);
  });

  it("says which languages the documents in effect cover", async () => {
    const { client } = testDb();
    expect(await coveredLanguages(client)).toEqual(["en", "es"]);
    expect(await isCoveredLanguage(client, "es")).toBe(true);
    expect(await isCoveredLanguage(client, "de")).toBe(false);
  });

  it("abstains for the language when no document in effect is written in it, and for the content otherwise", async () => {
    const { client } = testDb();
    expect(await answerPolicyQuestion(client, { question: "Kann ich meine Schuhe zurückgeben?", locale: "de" })).toMatchObject({
      status: "abstain",
      reason: "unsupported_language",
    });
    expect(await answerPolicyQuestion(client, { question: "¿Hacéis envíos a Canarias en barco?", locale: "es" })).toMatchObject({
      status: "abstain",
      reason: "no_approved_evidence",
    });
    expect(await answerPolicyQuestion(client, { question: "¿Puedo devolver zapatos sin usar?", locale: "es" })).toMatchObject({
      status: "grounded",
      citations: expect.arrayContaining(["devoluciones-zapatos@1"]),
    });
  });

  it("reads only the version in effect: not a retired, scheduled, in-review or draft one, nor a key with none in effect", async () => {
    const { client } = testDb();
    const found = (words: string) => retrievePassages(client, { question: `umbrella kite ${words}`, locale: "en" });
    expect((await found("currentwords")).map((p) => p.citation)).toEqual(["umbrella-care@2"]);
    for (const words of ["retiredwords", "scheduledwords", "reviewwords", "draftwords"])
      expect(
        (await found(words)).map((p) => p.citation),
        words,
      ).toEqual(["umbrella-care@2"]);
    expect((await found("repairs")).map((p) => p.docKey)).not.toContain("kite-care");
  });

  it("returns staff-only passages marked as such, for the reviewer", async () => {
    const { client } = testDb();
    const passages = await retrievePassages(client, { question: "worn shoes returned refund", locale: "en" });
    expect(passages.map((p) => [p.heading, p.audience])).toEqual(
      expect.arrayContaining([
        ["Shoe returns: Returning shoes", "customer"],
        ["Shoe returns: Worn shoes", "staff"],
      ]),
    );
  });
});
