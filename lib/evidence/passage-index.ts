// The passages in effect in one language, read once with their lexemes (each passage's tsvector as
// PostgreSQL's trigger built it: lexeme, positions, weights) and kept in this process while the same
// versions stay in effect. Retrieval then matches and ranks in memory exactly as PostgreSQL's `@@`,
// ts_filter and ts_rank_cd would on those tsvectors (retrieve-passages.integration.test.ts compares
// the two on every labelled question): one small statement per question instead of one over every
// passage. A published version's passages never change (the database refuses it), so a version's id
// and content hash name its passages for as long as it is in effect.
import { driverOf, Prisma, sqlRows, type Db } from "../db";

/** A passage's lexeme as its tsvector holds it. */
export interface TLexeme {
  lexeme: string;
  positions: number[];
  /** Per position: "A" (heading), "B" (text), "C", "D". */
  weights: string[];
  inHeading: boolean;
  inText: boolean;
}

export interface TIndexedPassage {
  chunkId: string;
  docKey: string;
  version: number;
  title: string;
  heading: string;
  text: string;
  locale: string;
  audience: "customer" | "staff";
  ordinal: number;
  lexemes: TLexeme[];
}

/** The passages of the versions in effect in one language, and where each lexeme occurs in them. */
export interface TPassageIndex {
  passages: TIndexedPassage[];
  /** Every lexeme of the passages, sorted (by UTF-16 code units): a prefix's lexemes stand together. */
  lexicon: string[];
  /** Per lexeme: the passages holding it, each with the lexeme's place in that passage's `lexemes`. */
  postings: Map<string, { passage: number; entry: number }[]>;
}

/** The language and the versions in effect in it, as `id:contentHash` in id order: what names an index. */
export type TCorpusKey = string;

/** Indexes kept per process: one per language and set of versions in effect, the newest last. */
const KEPT = 16;
const indexes = new Map<TCorpusKey, Promise<TPassageIndex>>();

type TChunkRow = Omit<TIndexedPassage, "version" | "ordinal" | "lexemes"> & { version: string; ordinal: string; lexemes: string };

async function readIndex(client: Db, documentIds: string[]): Promise<TPassageIndex> {
  const rows = await sqlRows<TChunkRow>(
    driverOf(client),
    Prisma.sql`
    SELECT c.id AS "chunkId", d."docKey", d.version, d.title, c.heading, c.text, d.locale, c.audience::text AS audience, c.ordinal,
           (SELECT coalesce(json_agg(json_build_array(u.lexeme, u.positions, u.weights)), '[]') FROM unnest(c.search) u)::text AS lexemes
    FROM "PolicyChunk" c JOIN "PolicyDocument" d ON d.id = c."documentId"
    WHERE c."documentId" IN (SELECT value::uuid FROM jsonb_array_elements_text(${JSON.stringify(documentIds)}::jsonb))`,
  );
  const passages = rows.map((row) => ({
    ...row,
    version: Number(row.version),
    ordinal: Number(row.ordinal),
    lexemes: (JSON.parse(row.lexemes) as [string, number[], string[]][]).map(([lexeme, positions, weights]) => ({
      lexeme,
      positions,
      weights,
      inHeading: weights.includes("A"),
      inText: weights.includes("B"),
    })),
  }));
  const postings = new Map<string, { passage: number; entry: number }[]>();
  passages.forEach((p, passage) =>
    p.lexemes.forEach(({ lexeme }, entry) => {
      const list = postings.get(lexeme) ?? postings.set(lexeme, []).get(lexeme)!;
      list.push({ passage, entry });
    }),
  );
  return { passages, lexicon: [...postings.keys()].sort(), postings };
}

/** The passages of the versions `documents` names (`id:contentHash`, space-separated, in id order) in
 * one language, read from the database the first time. */
export function passageIndex(client: Db, language: string, documents: string): Promise<TPassageIndex> {
  const key: TCorpusKey = `${language} ${documents}`;
  const kept = indexes.get(key);
  if (kept) {
    indexes.delete(key);
    indexes.set(key, kept);
    return kept;
  }
  const reading = readIndex(
    client,
    documents.split(" ").map((d) => d.split(":")[0]!),
  );
  indexes.set(key, reading);
  reading.catch(() => indexes.delete(key));
  while (indexes.size > KEPT) indexes.delete(indexes.keys().next().value!);
  return reading;
}

/** A term of a question as tsquery reads it: a lexeme, matching itself or (prefix) every lexeme it begins. */
export interface TQueryTerm {
  lexeme: string;
  prefix: boolean;
}

/** The index's lexemes a term matches, as tsquery's `@@` matches them. */
export function matchingLexemes({ lexicon, postings }: TPassageIndex, term: TQueryTerm): string[] {
  if (!term.prefix) return postings.has(term.lexeme) ? [term.lexeme] : [];
  let [low, high] = [0, lexicon.length];
  while (low < high) {
    const mid = (low + high) >> 1;
    if (lexicon[mid]! < term.lexeme) low = mid + 1;
    else high = mid;
  }
  const found: string[] = [];
  for (let i = low; i < lexicon.length && lexicon[i]!.startsWith(term.lexeme); i++) found.push(lexicon[i]!);
  return found;
}

/** A passage that holds a term: the terms it holds anywhere, in its heading, in its text, and its rank. */
export interface TPassageHit {
  passage: TIndexedPassage;
  matched: string[];
  inHeading: string[];
  inText: string[];
  score: number;
}

/**
 * The passages holding at least one of the terms (PostgreSQL's `search @@ (t1 | t2 | …)`), with the
 * terms each holds (`@@` on the whole tsvector, on its heading's lexemes – ts_filter '{a}' – and on its
 * text's – '{b}'), in the terms' order, and its ts_rank_cd; and each term's document frequency.
 */
export function searchIndex(index: TPassageIndex, terms: readonly TQueryTerm[]): { hits: TPassageHit[]; frequencies: number[] } {
  const hits = new Map<number, { entries: Set<number>; matched: string[]; inHeading: string[]; inText: string[] }>();
  // Terms come in order, so a term already noted for a passage is the list's last.
  const note = (list: string[], lexeme: string) => list.at(-1) !== lexeme && list.push(lexeme);
  const frequencies = terms.map((term) => {
    const holding = new Set<number>();
    for (const lexeme of matchingLexemes(index, term))
      for (const { passage, entry } of index.postings.get(lexeme)!) {
        holding.add(passage);
        const hit = hits.get(passage) ?? hits.set(passage, { entries: new Set(), matched: [], inHeading: [], inText: [] }).get(passage)!;
        const held = index.passages[passage]!.lexemes[entry]!;
        hit.entries.add(entry);
        note(hit.matched, term.lexeme);
        if (held.inHeading) note(hit.inHeading, term.lexeme);
        if (held.inText) note(hit.inText, term.lexeme);
      }
    return holding.size;
  });
  return {
    hits: [...hits].map(([at, hit]) => {
      const passage = index.passages[at]!;
      const lexemes = [...hit.entries].sort((a, b) => a - b).map((entry) => passage.lexemes[entry]!);
      return { passage, matched: hit.matched, inHeading: hit.inHeading, inText: hit.inText, score: tsRankCd(lexemes) };
    }),
    frequencies,
  };
}

/** ts_rank_cd's default weights of D, C, B and A (float4, as PostgreSQL holds them), by weight code. */
const WEIGHTS = [Math.fround(0.1), Math.fround(0.2), Math.fround(0.4), Math.fround(1)];
const WEIGHT_CODE: Record<string, number> = { D: 0, C: 1, B: 2, A: 3 };

/**
 * ts_rank_cd(search, t1 | t2 | …, 32) for a query of terms joined by OR: PostgreSQL's cover density
 * (tsrank.c, calc_rank_cd). With OR, every occurrence of a matched lexeme is a cover of its own, one
 * position long with no noise, worth its position's weight; occurrences of one lexeme at one position
 * count once however many terms match it (each is summed as PostgreSQL sums it, 1 / (1 / weight)).
 * Normalisation 32 divides the sum by itself plus one; the result is a float4.
 */
export function tsRankCd(lexemes: readonly TLexeme[]): number {
  // By position (one position has one weight: the heading's are A, the text's B). Lexemes sharing a
  // position weigh the same, so their order among themselves cannot change the sum.
  const covers = new Float64Array(lexemes.reduce((n, l) => n + l.positions.length, 0));
  let at = 0;
  for (const l of lexemes) l.positions.forEach((position, i) => (covers[at++] = position * 4 + WEIGHT_CODE[l.weights[i]!]!));
  covers.sort();
  let wdoc = 0;
  for (const cover of covers) wdoc += 1 / (1 / WEIGHTS[cover % 4]!);
  return Math.fround(wdoc / (wdoc + 1));
}
