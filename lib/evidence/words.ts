// How the draft checks read words (check-draft.ts, check-draft-relevance.ts): a text's words, a crude
// stem, and the content words that carry its claims.
import { withoutCitations } from "../contracts/citations";
import { isQuantityWord } from "./quantities";

export const STOP_WORDS = new Set(
  (
    "a an the and or but if so as at by for from in into of on onto to up with about after before than then that this these those there here " +
    "it its it's i i'm i've i'd i'll me my mine we we're we've we'll we'd us our ours you you're you've you'll you'd your yours he she they them their " +
    "is are was were be been being am do does did done have has had having will would shall should can could may might must " +
    "what which who whom whose when where why how all any each both some such only own same too very just also more most other " +
    "since because while until once again get gets got go goes let " +
    "hi hello dear thanks thank please kind regards best sincerely yes ok okay " +
    // framing a quote or a rule, not part of it
    "policy policies says say states stated according per rule rules note"
  ).split(" "),
);

/** Words that deny; handled by the negation check (3c), not counted as content. */
const NEGATIONS = new Set(["not", "no", "never", "cannot", "nor", "none", "nothing", "neither", "without"]);

/** Currency codes and signs: an amount is checked as a number, its unit is no claim of its own. */
export const CURRENCY = new Set(["usd", "eur", "gbp", "cad", "aud", "chf", "jpy", "dollar", "euro", "pound", "cent"]);

/** A word reduced to a crude stem: enough that inflections of one word meet, deterministic and small. */
export function stem(word: string): string {
  let w = word.toLowerCase().replace(/['’]s$/, "");
  // Once a word ends in a double s ("address", "glass", or "glasses" after its first rule) nothing more is cut.
  for (const [suffix, replacement] of [
    ["ies", "y"],
    ["sses", "ss"],
    ["s", ""],
    ["ing", ""],
    ["ed", ""],
    ["ly", ""],
    ["al", ""],
    ["y", ""],
    ["er", ""],
    ["e", ""],
  ] as const) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3 && !w.endsWith("ss")) w = w.slice(0, -suffix.length) + replacement;
  }
  return w;
}

/** The words of a text, lower-cased, citations left out. */
export function wordsOf(text: string): string[] {
  return (
    withoutCitations(text)
      .toLowerCase()
      .replace(/’/g, "'")
      .match(/[\p{L}][\p{L}']*/gu) ?? []
  ).map((w) => w.replace(/'+$/, ""));
}

export function isNegation(word: string): boolean {
  return NEGATIONS.has(word) || word.endsWith("n't");
}

/**
 * The stems of a text's content words: no stop words, negations, currency codes or quantities – a
 * number, its unit or a multiplier ("thirty", "days", "a year", "double") is rule 3e's to check, so a
 * paraphrase that writes "thirty days" or "a month" for "30 days" is not short of words for it.
 */
export function contentStems(text: string): Set<string> {
  return new Set(
    wordsOf(text)
      .filter((w) => !STOP_WORDS.has(w) && !isNegation(w) && !CURRENCY.has(w) && !CURRENCY.has(stem(w)) && !isQuantityWord(w))
      .map(stem),
  );
}
