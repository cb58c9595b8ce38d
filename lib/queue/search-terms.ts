// What a search box's text means, and how a result shows what matched. Pure: the page and the query
// both use it, and a browser component may import it.

export const SEARCH_MAX_LENGTH = 200;
/** Fragments shorter than a trigram cannot use the trigram indexes; they match whole words only. */
export const FRAGMENT_MIN_LENGTH = 3;
const MAX_WORDS = 8;

export interface TSearchTerms {
  /** A ticket number, when the text is one ("1042" or "#1042"; with #, only the number is searched). */
  number: number | null;
  /** The words, lower-cased, for full-text search: each matches a word it begins (prefix), all must match. */
  words: string[];
  /**
   * Hyphenated words with a digit ("ord-s00420"), lower-cased: PostgreSQL's parser keeps each whole as
   * one lexeme (beside its parts), so one prefix match stands for its parts – which, as prefixes of
   * their own ("ord"), would each read nearly every ticket. Their parts are not in `words`.
   */
  compounds: string[];
  /** The text as typed (trimmed, lower-cased), matched inside emails and order ids; null when too short. */
  fragment: string | null;
}

export function searchTerms(text: string): TSearchTerms {
  const trimmed = text.trim().toLowerCase().slice(0, SEARCH_MAX_LENGTH);
  const numeric = /^(#?)(\d{1,9})$/.exec(trimmed);
  // "#1042" names a ticket and nothing else; "1042" may also be part of an order id or an email.
  if (numeric?.[1]) return { number: Number(numeric[2]), words: [], compounds: [], fragment: null };
  const compounds = [...new Set((trimmed.match(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)+/gu) ?? []).filter((c) => /\p{N}/u.test(c)))].slice(
    0,
    MAX_WORDS,
  );
  const inCompounds = new Set(compounds.flatMap((c) => c.split("-")));
  const words = [...new Set(trimmed.match(/[\p{L}\p{N}]+/gu) ?? [])].filter((w) => !inCompounds.has(w)).slice(0, MAX_WORDS);
  return {
    number: numeric ? Number(numeric[2]) : null,
    words,
    compounds,
    fragment: trimmed.length >= FRAGMENT_MIN_LENGTH ? trimmed : null,
  };
}

/**
 * A prefix tsquery of the words (`'refund':* & 'tablet':*`), or null without words. Each word is
 * quoted as a tsquery literal, so nothing typed is read as tsquery syntax.
 */
export function prefixTsQuery(words: readonly string[]): string | null {
  if (words.length === 0) return null;
  return words.map((w) => `'${w.replace(/'/g, "''")}':*`).join(" & ");
}

/** A tsquery literal of the compounds, each a prefix (`'ord-s00420':*`), for a `::tsquery` cast (no parsing, no stemming), or null. */
export function compoundTsQuery(compounds: readonly string[]): string | null {
  if (compounds.length === 0) return null;
  return compounds.map((c) => `'${c.replace(/'/g, "''")}':*`).join(" & ");
}

/** A LIKE pattern matching the fragment anywhere, its wildcards and escape character taken literally. */
export function containsPattern(fragment: string): string {
  return `%${fragment.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** What to mark in a result: the fragment as typed and each of its words, longest first. */
export function highlightTerms(text: string): string[] {
  const { words, compounds, fragment } = searchTerms(text);
  return [...new Set([...(fragment ? [fragment] : []), ...compounds, ...words])].sort((a, b) => b.length - a.length);
}

export interface TSegment {
  text: string;
  match: boolean;
}

/** `text` cut into runs that match one of `terms` (case-insensitively) and runs that do not. */
export function highlightSegments(text: string, terms: readonly string[]): TSegment[] {
  const lower = text.toLowerCase();
  // A character whose lower case is longer (İ) would shift every offset after it: mark nothing then.
  if (lower.length !== text.length) return [{ text, match: false }];
  const segments: TSegment[] = [];
  let plain = 0;
  let i = 0;
  while (i < text.length) {
    const term = terms.find((t) => t.length > 0 && lower.startsWith(t, i));
    if (!term) {
      i++;
      continue;
    }
    if (i > plain) segments.push({ text: text.slice(plain, i), match: false });
    segments.push({ text: text.slice(i, i + term.length), match: true });
    i += term.length;
    plain = i;
  }
  if (plain < text.length) segments.push({ text: text.slice(plain), match: false });
  return segments;
}

const SNIPPET_BEFORE = 60;
const SNIPPET_LENGTH = 180;

/** The part of a body around its first match (or its start), at most about 180 characters. */
export function bodySnippet(body: string, terms: readonly string[]): string {
  const flat = body.replace(/\s+/g, " ").trim();
  const lower = flat.toLowerCase();
  const hits = terms.map((t) => lower.indexOf(t)).filter((at) => at >= 0);
  const first = hits.length ? Math.min(...hits) : 0;
  const start = first > SNIPPET_BEFORE ? first - SNIPPET_BEFORE : 0;
  const end = Math.min(flat.length, start + SNIPPET_LENGTH);
  return `${start > 0 ? "…" : ""}${flat.slice(start, end)}${end < flat.length ? "…" : ""}`;
}
