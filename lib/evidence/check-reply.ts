// What a reply to the customer says about money, held to the operation it goes out with: the checks a
// person's reply meets before it is approved, edited or not (an edited reply on an approval or a
// lowered refund, the agent's draft approved as it is, a reply written by hand after a rejection).
// A draft the agent writes meets checkDraft (check-draft.ts) in the runtime's observation step,
// against what the run retrieved and looked up; a reply meets these, against the refund that is
// actually being made, with the same reading of sentences, numbers, words and negations.
//
// 1. A sentence that speaks of a refund (REFUND_WORDS) states no amount but the refund's: with a
//    refund of 79.00 USD, "We have refunded 5,000.00 USD." is refused, and so is "79.00" once the
//    refund is lowered to 50.00. An amount is a number with a currency beside it ("USD 5", "5 €",
//    "$5") or written with cents ("79.00"); a number of days is no amount.
// 2. Without a refund (a reply-only request, a hand reply), a sentence that speaks of a refund may
//    not promise one: refused when it states an amount, or cites nothing, unless it denies ("not
//    eligible for a refund"). A cited sentence states the policy; the runtime held it to its passage.
import { citationsIn, withoutCitations } from "../contracts/citations";
import { canonicalNumber, isNegation, sentencesOf, speaksOf, wordsOf } from "./check-draft";

/** Words that speak of giving money back (the notation of check-draft.ts: `stem*` matches by its beginning). */
export const REFUND_WORDS = [
  "refund*",
  "reimburs*",
  "credited",
  "compensat*",
  "erstatt*",
  "rückerstatt*",
  "rembours*",
  "reembols*",
  "rimbors*",
  "terugbetal*",
] as const;

const CURRENCIES = "USD|EUR|GBP|CAD|AUD|CHF|JPY|dollars?|euros?|pounds?";
const NUMBER = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d+(?:\.\d{1,2})?`;
const AMOUNT = new RegExp(
  String.raw`(?:[$€£]\s?|\b(?:${CURRENCIES})\s?)(${NUMBER})(?!\d|,\d)|(?<![\d.,])(${NUMBER})\s?(?:[$€£]|(?:${CURRENCIES})\b)|(?<![\d.,])(\d{1,3}(?:,\d{3})+\.\d{2}|\d+\.\d{2})(?!\d|,\d)`,
  "gi",
);

/** The amounts of money a text states, canonical ("5,000.00 USD" is "5000"). */
export function amountsIn(text: string): string[] {
  return [...withoutCitations(text).matchAll(AMOUNT)].map((m) => canonicalNumber((m[1] ?? m[2] ?? m[3])!));
}

export type TReplyProblem =
  /** A sentence about the refund stating an amount that is not the refund's. */
  | { kind: "amount_not_refunded"; sentence: string; amount: string }
  /** A sentence promising a refund when none is being made. */
  | { kind: "refund_not_made"; sentence: string };

export interface TReplyCheckInput {
  reply: string;
  /** The refund the operation makes (its amount in cents), or null when it makes none. */
  refund: { amountCents: number; currency: string } | null;
}

export function checkReply({ reply, refund }: TReplyCheckInput): TReplyProblem[] {
  const problems: TReplyProblem[] = [];
  const refunded = refund ? canonicalNumber((refund.amountCents / 100).toFixed(2)) : null;
  for (const sentence of sentencesOf(reply)) {
    if (!speaksOf(sentence, REFUND_WORDS)) continue;
    const amounts = amountsIn(sentence);
    if (refunded !== null) {
      const other = amounts.find((a) => a !== refunded);
      if (other !== undefined) problems.push({ kind: "amount_not_refunded", sentence: sentence, amount: other });
      continue;
    }
    const denies = wordsOf(sentence).some(isNegation);
    if (!denies && (amounts.length > 0 || citationsIn(sentence).length === 0)) problems.push({ kind: "refund_not_made", sentence });
  }
  return problems;
}

/** A problem in words for the person who wrote the reply, naming the sentence. */
export function describeReplyProblem(p: TReplyProblem, refund: TReplyCheckInput["refund"]): string {
  const quoted = `“${withoutCitations(p.sentence)
    .replace(/\s+([.,;:!?])/g, "$1")
    .trim()}”`;
  if (p.kind === "refund_not_made")
    return `The reply promises a refund, but none is being made: ${quoted} Take the promise out, or say what happens instead.`;
  const amount = `${(refund!.amountCents / 100).toFixed(2)} ${refund!.currency}`;
  return `The reply states an amount other than the refund being made (${amount}): ${quoted} Write the refund's amount, or take the amount out.`;
}

/** The reply's first problem against the operation it goes out with, in words, or null: what the
 * decision refuses (lib/approvals/reply-claims.ts) and what the form says while the reply is edited. */
export function replyContradiction(reply: string, refund: TReplyCheckInput["refund"]): string | null {
  const [problem] = checkReply({ reply, refund });
  return problem ? describeReplyProblem(problem, refund) : null;
}
