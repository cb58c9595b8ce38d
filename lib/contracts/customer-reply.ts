// The reply as the customer reads it. A draft is written for the reviewer: every policy sentence
// carries its citation (`[return-policy-us@2]`), so the reviewer can check it against the passage.
// The customer gets the same words without them – citations name internal document versions, and a
// footnote would add nothing the customer can open – with line endings and trailing spaces tidied.
// The approval digest covers this text (approval-operation.ts), and every outbox message is it.
// It never carries a staff-only passage: a decision refuses a reply that repeats one
// (lib/approvals/reply-claims.ts) rather than this builder cutting it out, so what the customer
// receives is exactly what a person approved.
import { withoutCitations } from "./citations";

/** `\r\n` and lone `\r` as `\n`: a browser's textarea sends CRLF, so an untouched reply is not an edit. */
export function normaliseLineEndings(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

/** The text the customer receives for a draft: citations taken out, the spaces they leave closed up. */
export function customerReply(draft: string): string {
  return withoutCitations(normaliseLineEndings(draft))
    .split("\n")
    .map((line) => line.replace(/[ \t]+([.,;:!?)])/g, "$1").replace(/[ \t]{2,}/g, " ").trimEnd())
    .join("\n")
    .trim();
}

/** The person's edit of a draft, or null when it is the draft itself (up to line endings and outer space). */
export function replyEdit(draft: string | null, edited: string | null | undefined): string | null {
  const mine = normaliseLineEndings(edited ?? "").trim();
  if (!mine) return null;
  return mine === normaliseLineEndings(draft ?? "").trim() ? null : mine;
}

/**
 * The draft with a refund amount changed: every mention of the old amount as the drafts write it
 * ("79.00 USD", "79.00") becomes the new one, so a lowered refund never leaves a reply promising more.
 * Lowered, the reply also stops calling the refund full ("a full refund", "79.00 USD in full"): the
 * customer gets part of what they paid, and a reply saying otherwise is a promise the ledger breaks.
 */
export function replyWithAmount(draft: string, fromCents: number, toCents: number): string {
  const from = (fromCents / 100).toFixed(2).replace(".", "\\.");
  const to = (toCents / 100).toFixed(2);
  const changed = normaliseLineEndings(draft).replace(new RegExp(`(?<![\\d.])${from}(?!\\d)`, "g"), to);
  return toCents < fromCents ? withoutFullRefund(changed, to) : changed;
}

/** The reply without its claims that a refund is whole, worded as the drafts word them. */
function withoutFullRefund(text: string, amount: string): string {
  return (
    text
      // "for a full refund" – the policy's words, still true of a refund once "full" is gone.
      .replace(/\bfull (refunds?)\b/g, "$1")
      .replace(/\bFull (r)(efunds?)\b/g, (_m, r: string, rest: string) => r.toUpperCase() + rest)
      // "We have refunded 50.00 USD in full": the amount says how much.
      .replace(new RegExp(`(${amount.replace(".", "\\.")}(?:\\s+[A-Z]{3})?)\\s+in full\\b`, "g"), "$1")
      .replace(/\b(refunded) in full\b/gi, "$1 in part")
  );
}
