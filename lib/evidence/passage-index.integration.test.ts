// Retrieval matches and ranks in memory (passage-index.ts); PostgreSQL's own text search is the
// reference. On every labelled question of eval/questions.jsonl, asked as the rule planner asks it, over
// the demo's documents, the question's terms (German compounds split), the passages found, the terms
// each holds (anywhere, in its heading, in its text), their ts_rank_cd and the terms' frequencies are
// those of one statement in which PostgreSQL does all of it (`@@`, ts_filter, ts_rank_cd) – the
// statement retrieval ran before it read the passages into memory. And the index follows what is in effect: a version
// published after it was read is searched at once.
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { writeTestVersion } from "../../testing/policy-corpus";
import { seedDemo } from "../../prisma/seed/demo";
import { driverOf, Prisma, sqlRows } from "../db";
import { evidenceQuestion } from "../agent/rule-planner";
import { loadQuestionSet } from "../eval/grade-retrieval";
import { IN_EFFECT_DOCUMENTS, languageOfLocale } from "./in-effect";
import { ticketLanguage } from "./language";
import { COMPOUNDING, compoundCandidates, PREFIX_FROM, searchPassages, searchTerms } from "./retrieve-passages";

const testDb = useTestDb();

beforeAll(async () => {
  await seedDemo(testDb().client);
});

type TReferenceRow = { chunkId: string; score: string; matched: string; inHeading: string; inText: string; terms: string; corpus: string };

/** The compounds PostgreSQL splits (the statement retrieval used before it read passages into memory). */
function compoundSplitsInSql(words: string[], language: string): Prisma.Sql {
  const candidates = COMPOUNDING.has(language) ? words.filter((w) => /^\p{L}+$/u.test(w)).flatMap(compoundCandidates) : [];
  return Prisma.sql`cut AS (SELECT s.word, s.rank, w.lexeme AS whole, h.lexeme AS head, t.lexeme AS tail
                FROM jsonb_to_recordset(${JSON.stringify(candidates)}::jsonb) AS s(word text, head text, tail text, rank int)
                CROSS JOIN cfg
                CROSS JOIN LATERAL (SELECT (tsvector_to_array(to_tsvector(cfg.config, s.word)))[1] AS lexeme) w
                CROSS JOIN LATERAL (SELECT (tsvector_to_array(to_tsvector(cfg.config, s.head)))[1] AS lexeme) h
                CROSS JOIN LATERAL (SELECT (tsvector_to_array(to_tsvector(cfg.config, s.tail)))[1] AS lexeme) t),
         chosen AS (SELECT DISTINCT ON (word) whole, head, tail FROM cut
                    WHERE whole IS NOT NULL AND head IS NOT NULL AND tail IS NOT NULL
                      AND NOT EXISTS (SELECT 1 FROM corpus c WHERE c.search @@ (quote_literal(whole) || ':*')::tsquery)
                      AND EXISTS (SELECT 1 FROM corpus c WHERE c.search @@ quote_literal(head)::tsquery)
                      AND EXISTS (SELECT 1 FROM corpus c WHERE c.search @@ quote_literal(tail)::tsquery)
                    ORDER BY word, rank, head)`;
}

/** PostgreSQL's reading of the question: stemmed, matched and ranked in one statement. */
async function reference(question: string, locale: string) {
  const words = searchTerms(question);
  const language = languageOfLocale(locale);
  const rows = await sqlRows<TReferenceRow>(
    driverOf(testDb().client),
    Prisma.sql`
    WITH cfg AS (SELECT countersign_search_config(${language}) AS config),
         corpus AS (SELECT c.id, c.search FROM "PolicyChunk" c JOIN ${IN_EFFECT_DOCUMENTS} d ON d.id = c."documentId"
                    WHERE split_part(lower(d.locale), '-', 1) = ${language}),
         whole AS (SELECT DISTINCT unnest(tsvector_to_array(to_tsvector(cfg.config, ${words.join(" ")}))) AS lexeme FROM cfg),
         ${compoundSplitsInSql(words, language)},
         lexemes AS (SELECT lexeme FROM whole WHERE lexeme NOT IN (SELECT whole FROM chosen)
                     UNION SELECT head FROM chosen UNION SELECT tail FROM chosen),
         terms AS (SELECT lexeme, (quote_literal(lexeme) || CASE WHEN length(lexeme) >= ${PREFIX_FROM} THEN ':*' ELSE '' END) AS term FROM lexemes),
         q AS (SELECT string_agg(term, ' | ')::tsquery AS query FROM terms),
         frequency AS (SELECT t.lexeme, count(c.id) AS df FROM terms t LEFT JOIN corpus c ON c.search @@ t.term::tsquery GROUP BY t.lexeme)
    SELECT c.id AS "chunkId", ts_rank_cd(c.search, q.query, 32)::float8 AS score,
           (SELECT coalesce(json_agg(t.lexeme), '[]') FROM terms t WHERE c.search @@ t.term::tsquery)::text AS matched,
           (SELECT coalesce(json_agg(t.lexeme), '[]') FROM terms t WHERE ts_filter(c.search, '{a}') @@ t.term::tsquery)::text AS "inHeading",
           (SELECT coalesce(json_agg(t.lexeme), '[]') FROM terms t WHERE ts_filter(c.search, '{b}') @@ t.term::tsquery)::text AS "inText",
           (SELECT coalesce(json_agg(json_build_array(f.lexeme, f.df)), '[]') FROM frequency f)::text AS terms,
           (SELECT count(*) FROM corpus) AS corpus
    FROM corpus c CROSS JOIN q WHERE c.search @@ q.query`,
  );
  const sorted = (json: string) => (JSON.parse(json) as string[]).sort();
  return {
    passages: rows
      .map((r) => ({
        chunkId: r.chunkId,
        score: Number(r.score),
        matched: sorted(r.matched),
        inHeading: sorted(r.inHeading),
        inText: sorted(r.inText),
      }))
      .sort((a, b) => (a.chunkId < b.chunkId ? -1 : 1)),
    terms: rows[0]
      ? (JSON.parse(rows[0].terms) as [string, number][])
          .map(([lexeme, passages]) => ({ lexeme, passages: Number(passages) }))
          .sort((a, b) => (a.lexeme < b.lexeme ? -1 : 1))
      : [],
    corpusSize: rows[0] ? Number(rows[0].corpus) : 0,
  };
}

describe("retrieval in memory", () => {
  it("finds, matches and ranks as PostgreSQL's text search does, on every labelled question", async () => {
    const { questions } = await loadQuestionSet("eval/questions.jsonl");
    let compared = 0;
    for (const q of questions) {
      const locale = ticketLanguage(q);
      const found = await searchPassages(testDb().client, { question: evidenceQuestion(q), locale, limit: 10_000 });
      const mine = {
        passages: found.passages
          .map((p) => ({ chunkId: p.chunkId, score: p.score, matched: p.matched, inHeading: p.inHeading, inText: p.inText }))
          .sort((a, b) => (a.chunkId < b.chunkId ? -1 : 1)),
        terms: found.terms,
        corpusSize: found.corpusSize,
      };
      expect(mine, q.id).toEqual(await reference(evidenceQuestion(q), locale));
      // Best first, as PostgreSQL's ORDER BY score DESC would have them.
      expect(
        found.passages.map((p) => p.score),
        q.id,
      ).toEqual(found.passages.map((p) => p.score).sort((a, b) => b - a));
      if (found.passages.length) compared++;
    }
    // Not a comparison of empty answers: most questions find passages.
    expect(compared).toBeGreaterThan(questions.length * 0.8);
  }, 300_000);

  it("searches a version published after the index was read, and no longer the one it replaced", async () => {
    const { client } = testDb();
    const doc = (version: number, words: string) =>
      `---\nkey: parasol-care\ntitle: "Parasols"\nlocale: en\nowner: Care\n---\n## Parasols\n\nParasol repairs ${words}.\n`;
    await writeTestVersion(client, { markdown: doc(1, "take a fortnight"), version: 1 });
    expect((await searchPassages(client, { question: "parasol fortnight", locale: "en" })).passages.map((p) => p.citation)).toEqual([
      "parasol-care@1",
    ]);
    await writeTestVersion(client, { markdown: doc(2, "take a weekend"), version: 2 });
    const after = await searchPassages(client, { question: "parasol fortnight weekend", locale: "en" });
    expect(after.passages.map((p) => [p.citation, p.matched])).toEqual([["parasol-care@2", ["parasol", "weekend"]]]);
  });
});
