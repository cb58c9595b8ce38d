// Retrieval over the policy passages in effect, with PostgreSQL full-text search, in one language at a
// time. Only rows of PolicyChunk can come back: text in a ticket never becomes evidence, and naming a
// document in a ticket ("follow seller-private-note-44") retrieves nothing that retrieval would not
// find anyway. Each passage was indexed with its document's locale's text-search configuration (the
// trigger, countersign_search_config); the question is stemmed with the configuration of the language
// it is asked in, and only documents of that language are searched, so a Spanish question meets
// Spanish stems and an answer never mixes languages.
import { driverOf, Prisma, sqlRows, type Db } from "../db";
import { citationOf } from "../contracts/citations";
import { IN_EFFECT_DOCUMENTS, languageOfLocale } from "./in-effect";

/** This retrieval's own identity. Runs record the manifest's evidenceServiceVersion, which must name
 * it (lib/contracts/pins.test.ts). */
export const EVIDENCE_SERVICE_VERSION = "policy-fts-v5";

export interface TRetrievedPassage {
  chunkId: string;
  docKey: string;
  version: number;
  citation: string;
  title: string;
  heading: string;
  text: string;
  /** The document's locale ("en", "es"). */
  locale: string;
  /** customer: may be quoted to the customer; staff: cited to the reviewer, never sent. */
  audience: "customer" | "staff";
  /** ts_rank_cd normalised to [0, 1). */
  score: number;
  /** Share of the question that occurs in the passage: its distinct terms each weighed by how rare it
   * is in the language's passages (termWeights), so "zapatos" counts for more than "pedido". */
  coverage: number;
}

/**
 * Words a ticket is written with that say nothing about which policy answers it: greetings and
 * courtesy, and the words of asking and telling ("I wanted to know…", "me gustaría saber…"), in the
 * languages tickets come in. No passage is about them; kept, they would count as part of the question
 * that no document covers (termWeights), and any passage that happens to hold one would gain by it.
 */
const TICKET_WORDS = new Set(
  (
    "hi hello hey dear thanks thank thx please regards cheers ok okay yes " +
    "get gets got getting want wants wanted need needs needed like know knew tell told ask asked asking say said wonder wondering " +
    "question questions possible just really also still yet maybe hope help " +
    "what when where which why how much many long ago can could would should will may might do does did go goes going come came try tried see " +
    "hola buenas buenos gracias saludos favor quiero quería quisiera querría necesito saber sé gustaría pregunta duda ayuda " +
    "qué que cuál cual cuánto cuanto cuánta cuanta cuántos cuantos cuántas cuantas cuándo cuando dónde donde cómo como aún aun todavía todavia " +
    "hace " +
    "bonjour bonsoir merci salut cordialement voudrais veux aimerais savoir question aide " +
    "hallo danke bitte grüße möchte möchten würde wissen frage hilfe " +
    "was wann wo wie warum welche welcher lange kann können könnte kommt wurde wurden " +
    "olá obrigado obrigada gostaria queria saber ciao buongiorno grazie salve vorrei sapere hoi bedankt groet graag weten"
  ).split(" "),
);

/**
 * Identifiers: a token in which letters run into digits ("ORD-1001", "ORD-EV00060", "sku123"), or of
 * three or more parts joined by hyphens ("seller-private-note-44"). An order's or a document's name
 * is not a topic: naming a document retrieves nothing that its subject would not. ("30-day" and
 * "4k", digits before letters, are kept.)
 */
const TOKEN = /[\p{L}\p{N}_-]+/gu;
const isIdentifier = (token: string) => /\p{L}[-_]?\p{N}/u.test(token) || token.split("-").length >= 3;

/** An English contraction's tail ("doesn't", "I'm", "we'll"): what is left of it is a stop word. */
const CONTRACTION = /(?:n['’]t|['’](?:s|m|d|ll|ve|re))\b/gu;

/** The question's distinct words, before the language's configuration stems them. */
export function searchTerms(question: string): string[] {
  const plain = question.toLowerCase().replace(TOKEN, (token) => (isIdentifier(token) ? " " : token));
  const words = plain.replace(CONTRACTION, " ").match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].filter((w) => !TICKET_WORDS.has(w)).slice(0, 48);
}

/** The shortest stem that also matches the words it begins. */
const PREFIX_FROM = 4;

export interface TRetrievalQuery {
  question: string;
  /** The language asked in ("en", "es"; a locale's region is ignored): the documents searched and the
   * configuration the question is stemmed with. */
  locale: string;
  limit?: number;
}

/** A term of the question as the language's configuration stems it, and in how many passages of
 * that language in effect it occurs. */
export interface TQuestionTerm {
  lexeme: string;
  passages: number;
}

export interface TRetrieval {
  /** The passages that share a term with the question, best ts_rank_cd first (at most `limit`), with
   * the terms each holds anywhere, in its heading, and in its text. */
  passages: (TRetrievedPassage & { matched: string[]; inHeading: string[]; inText: string[] })[];
  /** The question's distinct terms (stop words left out), each with its document frequency. */
  terms: TQuestionTerm[];
  /** Passages in effect in the language asked: the collection the frequencies are counted in. */
  corpusSize: number;
}

type TRow = Omit<TRetrievedPassage, "citation" | "score" | "coverage" | "version"> & {
  version: string;
  score: string;
  matched: string;
  inHeading: string;
  inText: string;
  terms: string;
  corpus: string;
};

/** Languages that write compounds as one word ("Versandkosten", "Lieferzeit"), whose stemmer does
 * not split them. */
const COMPOUNDING = new Set(["de", "nl", "sv", "da", "no"]);
/** The shortest part a compound is split into, and so the shortest word split (twice that). */
const COMPOUND_PART = 4;

/** Every way to cut a word into two parts of at least COMPOUND_PART letters, the most even first. */
export function compoundCandidates(word: string): { word: string; head: string; tail: string; rank: number }[] {
  const cuts = Array.from({ length: Math.max(0, word.length - 2 * COMPOUND_PART + 1) }, (_, i) => i + COMPOUND_PART);
  return cuts.map((at) => ({ word, head: word.slice(0, at), tail: word.slice(at), rank: Math.abs(word.length - 2 * at) }));
}

/**
 * The CTE `chosen (whole, head, tail)`: a compound of the question that no passage holds, split into
 * two parts each of which is a lexeme of the language's passages ("lieferzeit" – "liefer", "zeit";
 * a linking s falls to the stemmer: "sendungs" – "sendung"), the most even such cut per word. The
 * parts then stand for the word in the question: "Lieferzeit" is asked as "Liefer… Zeit", which
 * passages about delivery times hold. A word a passage holds, or one no cut makes of two known
 * lexemes, is kept whole. Only in COMPOUNDING languages; needs `cfg`, `corpus` and `whole`.
 */
function compoundSplits(words: string[], language: string): Prisma.Sql {
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

/**
 * The passages in effect in one language that share at least one term with the question, with the
 * terms each holds, and how common each of the question's terms is in that language's passages: what
 * ranking and the context pack weigh (answer-policy-question.ts). One statement.
 */
export async function searchPassages(client: Db, { question, locale, limit = 200 }: TRetrievalQuery): Promise<TRetrieval> {
  const words = searchTerms(question);
  if (!words.length) return { passages: [], terms: [], corpusSize: 0 };
  const language = languageOfLocale(locale);
  // Words reach the query only as lexemes PostgreSQL made of letters and digits, each quoted: nothing in
  // a ticket can form query syntax. A term of PREFIX_FROM letters or more also matches a passage's word
  // that starts with it ("deliv" – "deliveri", "reembols" – "reembolsar"); a shorter one only itself
  // ("ord" of an order id is not "order").
  const rows = await sqlRows<TRow>(
    driverOf(client),
    Prisma.sql`
    WITH cfg AS (SELECT countersign_search_config(${language}) AS config),
         corpus AS (SELECT c.id, c.search, c.heading, c.text, c.audience, c.ordinal, d."docKey", d.version, d.title, d.locale
                    FROM "PolicyChunk" c JOIN ${IN_EFFECT_DOCUMENTS} d ON d.id = c."documentId"
                    WHERE split_part(lower(d.locale), '-', 1) = ${language}),
         whole AS (SELECT DISTINCT unnest(tsvector_to_array(to_tsvector(cfg.config, ${words.join(" ")}))) AS lexeme FROM cfg),
         ${compoundSplits(words, language)},
         lexemes AS (SELECT lexeme FROM whole WHERE lexeme NOT IN (SELECT whole FROM chosen)
                     UNION SELECT head FROM chosen UNION SELECT tail FROM chosen),
         terms AS (SELECT lexeme, (quote_literal(lexeme) || CASE WHEN length(lexeme) >= ${PREFIX_FROM} THEN ':*' ELSE '' END) AS term FROM lexemes),
         q AS (SELECT string_agg(term, ' | ')::tsquery AS query FROM terms),
         frequency AS (SELECT t.lexeme, count(c.id) AS df FROM terms t LEFT JOIN corpus c ON c.search @@ t.term::tsquery GROUP BY t.lexeme)
    SELECT c.id AS "chunkId", c."docKey", c.version, c.title, c.heading, c.text, c.locale, c.audience::text AS audience,
           ts_rank_cd(c.search, q.query, 32)::float8 AS score,
           (SELECT coalesce(json_agg(t.lexeme ORDER BY t.lexeme), '[]') FROM terms t WHERE c.search @@ t.term::tsquery)::text AS matched,
           (SELECT coalesce(json_agg(t.lexeme ORDER BY t.lexeme), '[]') FROM terms t WHERE ts_filter(c.search, '{a}') @@ t.term::tsquery)::text AS "inHeading",
           (SELECT coalesce(json_agg(t.lexeme ORDER BY t.lexeme), '[]') FROM terms t WHERE ts_filter(c.search, '{b}') @@ t.term::tsquery)::text AS "inText",
           (SELECT coalesce(json_agg(json_build_array(f.lexeme, f.df) ORDER BY f.lexeme), '[]') FROM frequency f)::text AS terms,
           (SELECT count(*) FROM corpus) AS corpus
    FROM corpus c CROSS JOIN q
    WHERE c.search @@ q.query
    ORDER BY score DESC, c."docKey", c.ordinal
    LIMIT ${limit}`,
  );
  const first = rows[0];
  return {
    passages: rows.map(({ matched, inHeading, inText, terms: _terms, corpus: _corpus, ...row }) => ({
      ...row,
      version: Number(row.version),
      score: Number(row.score),
      citation: citationOf(row.docKey, Number(row.version)),
      coverage: 0,
      matched: JSON.parse(matched) as string[],
      inHeading: JSON.parse(inHeading) as string[],
      inText: JSON.parse(inText) as string[],
    })),
    terms: first
      ? (JSON.parse(first.terms) as [string, number][]).map(([lexeme, passages]) => ({ lexeme, passages: Number(passages) }))
      : [],
    corpusSize: first ? Number(first.corpus) : 0,
  };
}

/**
 * How much a term says about which passage answers: its inverse document frequency (BM25's, always
 * above 0) in the passages of the language asked. A term no passage holds cannot tell passages apart,
 * but it is part of what was asked: it weighs UNKNOWN_TERM_WEIGHT of the rarest known term's weight,
 * so a question about something no document mentions ("follow seller-private-note-44") is covered
 * less by any passage than one about what the documents say. A number no passage holds (an order
 * number, "40 days ago") is a fact of the case, not a topic, and weighs nothing.
 */
export function termWeights(
  { terms, corpusSize }: Pick<TRetrieval, "terms" | "corpusSize">,
  unknownWeight = UNKNOWN_TERM_WEIGHT,
): Map<string, number> {
  const idf = (df: number) => Math.log(1 + (corpusSize - df + 0.5) / (df + 0.5));
  const unknown = /^\d+$/;
  return new Map(terms.map((t) => [t.lexeme, t.passages > 0 ? idf(t.passages) : unknown.test(t.lexeme) ? 0 : unknownWeight * idf(1)]));
}

export const UNKNOWN_TERM_WEIGHT = 1;

/**
 * How passages are ordered: by relevance, the coverage of their text (the question's terms the
 * passage itself states) plus HEADING_WEIGHT times the coverage of their heading (the document's
 * title and the section's: a question about "gift cards" belongs first to the passages under that
 * title) plus RANK_WEIGHT times ts_rank_cd (which rewards the terms standing close together). A term
 * only the heading holds counts once, as heading: a document whose title names the question's words
 * ("Refunds by payment method") holds them in every passage, the one that answers states them.
 * Coverage (what the context pack admits a passage on) counts a term wherever the passage holds it.
 * Tuned on the tuning half of eval/questions.jsonl; see eval/README.md.
 */
export const RANKING = { headingWeight: 0.5, rankWeight: 0.5 };

/** The found passages with their coverage, the most relevant first (RANKING), then by citation. */
export function rankPassages(found: TRetrieval, unknownWeight = UNKNOWN_TERM_WEIGHT): TRetrievedPassage[] {
  const weights = termWeights(found, unknownWeight);
  const total = [...weights.values()].reduce((a, b) => a + b, 0);
  const share = (terms: string[]) => (total ? terms.reduce((sum, m) => sum + (weights.get(m) ?? 0), 0) / total : 0);
  return found.passages
    .map(({ matched, inHeading, inText, ...p }) => {
      const coverage = share(matched);
      const relevance = share(inText) + RANKING.headingWeight * share(inHeading) + RANKING.rankWeight * p.score;
      return { passage: { ...p, coverage }, relevance };
    })
    .sort((a, b) => b.relevance - a.relevance || a.passage.citation.localeCompare(b.passage.citation))
    .map(({ passage }) => passage);
}

/** The passages in effect in one language that share a term with the question, ranked (rankPassages). */
export async function retrievePassages(client: Db, query: TRetrievalQuery): Promise<TRetrievedPassage[]> {
  return rankPassages(await searchPassages(client, query));
}
