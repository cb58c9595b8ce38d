// The order's own words in a draft – the customer's name, the order id, the item – taken out before
// the draft check looks for claims (check-draft.ts, rule 2): they are facts of the order, never claims.
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const ASCII = /^[\x00-\x7f]*$/;

/** [\p{L}\d] for the code of an ASCII character in lower-cased text: a digit or a small letter. */
function asciiWordChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 97 && code <= 122);
}

const isDigit = (code: number) => code >= 48 && code <= 57;
/** A decimal point or a thousands comma: "14.99" and "1,400" are one number, not the item's "14". */
const isNumberMark = (code: number) => code === 46 || code === 44;

/** One pass over ASCII text for an ASCII part: what the pass's regex does, by plain search. */
function removeAsciiPart(text: string, part: string): string {
  // Lower-casing is exact and keeps every offset for ASCII, and for ASCII text a case-insensitive
  // match of an ASCII part is exactly equality after lower-casing both.
  const lower = text.toLowerCase();
  let out = "";
  let from = 0;
  for (let at = lower.indexOf(part); at !== -1;) {
    const end = at + part.length;
    // Before the text's start and past its end charCodeAt gives NaN, which is no word character.
    const glued =
      asciiWordChar(lower.charCodeAt(at - 1)) ||
      asciiWordChar(lower.charCodeAt(end)) ||
      (isNumberMark(lower.charCodeAt(at - 1)) && isDigit(lower.charCodeAt(at - 2))) ||
      (isNumberMark(lower.charCodeAt(end)) && isDigit(lower.charCodeAt(end + 1)));
    if (glued) {
      at = lower.indexOf(part, at + 1);
      continue;
    }
    out += `${text.slice(from, at)} `;
    from = end;
    at = lower.indexOf(part, end);
  }
  return out + text.slice(from);
}

/**
 * Takes the order's own terms (name, order id, item) out of a text, matched as whole words and
 * ignoring case: each term and each of its words, the longest first, one pass each – never a piece of
 * a longer number ("14" of "14.99" or "1,400"). Each pass is the regex
 * `(?<![\p{L}\d]|\d[.,])part(?![\p{L}\d]|[.,]\d)` with flags `giu` replaced by a space; ASCII text and
 * parts (nearly every draft) are searched without it, a few times faster, with the same result
 * (check-draft.test.ts holds the two together).
 */
export function orderTermsRemover(terms: string[]): (text: string) => string {
  const parts = [
    ...new Set(
      terms
        .flatMap((t) => [t, ...t.split(/\s+/)])
        .map((t) => t.trim())
        .filter((t) => t.length >= 2),
    ),
  ].sort((a, b) => b.length - a.length);
  const asciiParts = parts.every((part) => ASCII.test(part)) ? parts.map((part) => part.toLowerCase()) : null;
  // Compiled the first time a text needs them: a unicode regex is costly to build, and an ASCII draft
  // over an ASCII order never does.
  let patterns: RegExp[] | undefined;
  const compiled = () =>
    (patterns ??= parts.map((part) => new RegExp(`(?<![\\p{L}\\d]|\\d[.,])${escapeRegExp(part)}(?![\\p{L}\\d]|[.,]\\d)`, "giu")));
  return (text) =>
    asciiParts && ASCII.test(text)
      ? asciiParts.reduce(removeAsciiPart, text)
      : compiled().reduce((out, pattern) => out.replace(pattern, " "), text);
}
