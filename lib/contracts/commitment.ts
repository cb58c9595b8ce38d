// A salted commitment to a personal value: what the audit chain, its exports and the events' readers
// hold instead of a customer's name, address or words. HMAC-SHA256 keyed by the data subject's own
// salt (Customer.salt): whoever holds the salt can check that a value is the one committed to; once
// erasure destroys the salt, nobody can – not even by guessing the value – while every hashed byte of
// the chain stays as it was.
import { createHmac } from "node:crypto";

export const COMMITMENT_PREFIX = "hmac-sha256:";

export function commitment(salt: string, value: string): string {
  return COMMITMENT_PREFIX + createHmac("sha256", salt).update(value, "utf8").digest("hex");
}

/**
 * A personal text as an audit event carries it: its commitment under the customer's salt, or, when
 * the ticket's address is no customer's (no salt to commit with), only its length – never the text.
 */
export function committedText(salt: string | null, value: string): string {
  return salt ? commitment(salt, value) : `withheld:${value.length}`;
}

/** Free-text arguments of the agent's tools (a question quoting the ticket, a refund's reason): committed. */
const FREE_TEXT_ARGS = new Set(["question", "reason"]);

/** A tool call's arguments for the audit chain: identifiers and amounts as they are, free text committed. */
export function committedArgs(args: Record<string, unknown>, salt: string | null): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(args).map(([k, v]) => [k, typeof v === "string" && FREE_TEXT_ARGS.has(k) ? committedText(salt, v) : v]),
  );
}
