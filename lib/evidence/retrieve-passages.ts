// Retrieval over the policy passages in effect, with PostgreSQL full-text search, in one language at a
// time. Only rows of PolicyChunk can come back: text in a ticket never becomes evidence, and naming a
// document in a ticket ("follow seller-private-note-44") retrieves nothing that retrieval would not
// find anyway. Each passage was indexed with its document's locale's text-search configuration (the
// trigger, countersign_search_config); the question is stemmed with the configuration of the language
// it is asked in, and only documents of that language are searched, so a Spanish question meets
// Spanish stems and an answer never mixes languages. PostgreSQL stems; the passages' lexemes are read
// once per set of versions in effect and matched in memory as `@@` and ts_rank_cd would
// (passage-index.ts).
import { driverOf, Prisma, sqlRows, type Db } from "../db";
import { citationOf } from "../contracts/citations";
import { IN_EFFECT_DOCUMENTS, languageOfLocale } from "./in-effect";
import { matchingLexemes, passageIndex, searchIndex, type TPassageHit, type TPassageIndex, type TQueryTerm } from "./passage-index";

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
const LETTER_THEN_DIGIT = /\p{L}[-_]?\p{N}/u;
const isIdentifier = (token: string) => LETTER_THEN_DIGIT.test(token) || token.split("-").length >= 3;

/** An English contraction's tail ("doesn't", "I'm", "we'll"): what is left of it is a stop word. */
const CONTRACTION = /(?:n['’]t|['’](?:s|m|d|ll|ve|re))\b/gu;

/** The question's distinct words, before the language's configuration stems them. */
export function searchTerms(question: string): string[] {
  const plain = question.toLowerCase().replace(TOKEN, (token) => (isIdentifier(token) ? " " : token));
  const words = plain.replace(CONTRACTION, " ").match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].filter((w) => !TICKET_WORDS.has(w)).slice(0, 48);
}

/** The shortest stem that also matches the words it begins. */
export const PREFIX_FROM = 4;

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

/** Languages that write compounds as one word ("Versandkosten", "Lieferzeit"), whose stemmer does
 * not split them. */
export const COMPOUNDING = new Set(["de", "nl", "sv", "da", "no"]);
/** The shortest part a compound is split into, and so the shortest word split (twice that). */
const COMPOUND_PART = 4;

/** Every way to cut a word into two parts of at least COMPOUND_PART letters, the most even first. */
export function compoundCandidates(word: string): { word: string; head: string; tail: string; rank: number }[] {
  const cuts = Array.from({ length: Math.max(0, word.length - 2 * COMPOUND_PART + 1) }, (_, i) => i + COMPOUND_PART);
  return cuts.map((at) => ({ word, head: word.slice(0, at), tail: word.slice(at), rank: Math.abs(word.length - 2 * at) }));
}

/** A word's first lexeme as the language's configuration stems it alone (null: a stop word). */
type TStems = Record<string, string | null>;

/**
 * A compound of the question that no passage holds, split into two parts each of which is a lexeme of
 * the language's passages ("lieferzeit" – "liefer", "zeit"; a linking s falls to the stemmer:
 * "sendungs" – "sendung"), the most even such cut per word. The parts then stand for the word in the
 * question: "Lieferzeit" is asked as "Liefer… Zeit", which passages about delivery times hold. A word
 * a passage holds (or a word it begins), or one no cut makes of two known lexemes, is kept whole. Only
 * in COMPOUNDING languages.
 */
function compoundSplits(candidates: ReturnType<typeof compoundCandidates>, stems: TStems, index: TPassageIndex) {
  const chosen = new Map<string, { whole: string; head: string; tail: string; rank: number }>();
  const held = (whole: string) => matchingLexemes(index, { lexeme: whole, prefix: true }).length > 0;
  for (const c of candidates) {
    const [whole, head, tail] = [stems[c.word], stems[c.head], stems[c.tail]];
    if (!whole || !head || !tail || !index.postings.has(head) || !index.postings.has(tail) || held(whole)) continue;
    const before = chosen.get(c.word);
    if (!before || c.rank < before.rank || (c.rank === before.rank && head < before.head))
      chosen.set(c.word, { whole, head, tail, rank: c.rank });
  }
  return [...chosen.values()];
}

type TQuestionRow = { documents: string; whole: string; stems: string };

/** Each of the words' first lexemes, as a JSON object (TStems); only asked for when there are words
 * (the subquery costs a millisecond on the embedded database even with none). Needs `cfg`. */
const stemsOf = (words: string[]) =>
  words.length
    ? Prisma.sql`(SELECT json_object_agg(p.value, (tsvector_to_array(to_tsvector(cfg.config, p.value)))[1])
                  FROM jsonb_array_elements_text(${JSON.stringify(words)}::jsonb) p)::text`
    : Prisma.sql`'{}'`;

/**
 * The passages in effect in one language that share at least one term with the question, with the
 * terms each holds, and how common each of the question's terms is in that language's passages: what
 * ranking and the context pack weigh (answer-policy-question.ts). One statement stems the question and
 * names the versions in effect; their passages come from the index (passage-index.ts), read once.
 */
export async function searchPassages(client: Db, { question, locale, limit = 200 }: TRetrievalQuery): Promise<TRetrieval> {
  const words = searchTerms(question);
  if (!words.length) return { passages: [], terms: [], corpusSize: 0 };
  const language = languageOfLocale(locale);
  const candidates = COMPOUNDING.has(language) ? words.filter((w) => /^\p{L}+$/u.test(w)).flatMap(compoundCandidates) : [];
  const parts = [...new Set(candidates.flatMap((c) => [c.word, c.head, c.tail]))];
  // Words reach the database only as text to stem; what comes back is lexemes, matched here: nothing in
  // a ticket can form query syntax.
  const [row] = await sqlRows<TQuestionRow>(
    driverOf(client),
    Prisma.sql`
    WITH cfg AS (SELECT countersign_search_config(${language}) AS config)
    SELECT (SELECT coalesce(string_agg(d.id::text || ':' || d."contentHash", ' ' ORDER BY d.id), '')
            FROM ${IN_EFFECT_DOCUMENTS} d WHERE split_part(lower(d.locale), '-', 1) = ${language}) AS documents,
           (SELECT coalesce(json_agg(DISTINCT w), '[]') FROM unnest(tsvector_to_array(to_tsvector(cfg.config, ${words.join(" ")}))) w)::text AS whole,
           ${stemsOf(parts)} AS stems
    FROM cfg`,
  );
  if (!row!.documents) return { passages: [], terms: [], corpusSize: 0 };
  const index = await passageIndex(client, language, row!.documents);
  const chosen = compoundSplits(candidates, JSON.parse(row!.stems) as TStems, index);
  const split = new Set(chosen.map((c) => c.whole));
  const lexemes = new Set([
    ...(JSON.parse(row!.whole) as string[]).filter((w) => !split.has(w)),
    ...chosen.flatMap((c) => [c.head, c.tail]),
  ]);
  // A term of PREFIX_FROM letters or more also matches a passage's word that starts with it ("deliv" –
  // "deliveri", "reembols" – "reembolsar"); a shorter one only itself ("ord" of an order id is not "order").
  const terms: TQueryTerm[] = [...lexemes].sort().map((lexeme) => ({ lexeme, prefix: [...lexeme].length >= PREFIX_FROM }));
  const { hits, frequencies } = searchIndex(index, terms);
  if (!hits.length) return { passages: [], terms: [], corpusSize: 0 };
  const byKey = (a: TPassageHit, b: TPassageHit) =>
    a.passage.docKey < b.passage.docKey ? -1 : a.passage.docKey > b.passage.docKey ? 1 : 0;
  hits.sort((a, b) => b.score - a.score || byKey(a, b) || a.passage.ordinal - b.passage.ordinal);
  return {
    // Fields named one by one: a rest pattern copies generically, and this runs for every passage found.
    passages: hits.slice(0, limit).map(({ passage: p, matched, inHeading, inText, score }) => ({
      ...retrievedPassage(p, citationOf(p.docKey, p.version), score, 0),
      matched,
      inHeading,
      inText,
    })),
    terms: terms.map((t, i) => ({ lexeme: t.lexeme, passages: frequencies[i]! })),
    corpusSize: index.passages.length,
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
    .map((p) => {
      const relevance = share(p.inText) + RANKING.headingWeight * share(p.inHeading) + RANKING.rankWeight * p.score;
      return { passage: retrievedPassage(p, p.citation, p.score, share(p.matched)), relevance };
    })
    .sort((a, b) => b.relevance - a.relevance || a.passage.citation.localeCompare(b.passage.citation))
    .map(({ passage }) => passage);
}

/** A passage as retrieval returns it. */
function retrievedPassage(
  p: Omit<TRetrievedPassage, "citation" | "score" | "coverage">,
  citation: string,
  score: number,
  coverage: number,
): TRetrievedPassage {
  const { chunkId, docKey, version, title, heading, text, locale, audience } = p;
  return { chunkId, docKey, version, citation, title, heading, text, locale, audience, score, coverage };
}

/** The passages in effect in one language that share a term with the question, ranked (rankPassages). */
export async function retrievePassages(client: Db, query: TRetrievalQuery): Promise<TRetrievedPassage[]> {
  return rankPassages(await searchPassages(client, query));
}
