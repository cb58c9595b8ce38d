// The reply a decision sends is held to the operation it goes out with: no amount but the refund's, no
// refund promised when none is made (lib/evidence/check-reply.ts). Asked by a decision (the draft as
// it is, or as the person edited it), a lowered refund's edit and a reply written by hand; a refusal
// names the sentence and the form's field, so the form shows it beside the reply.
import { replyContradiction } from "../evidence/check-reply";
import { staffOnlySentences } from "../evidence/check-draft";
import { withoutCitations } from "../contracts/citations";
import { decisionRefused } from "./decision-options";

/** Throws `reply_contradicts_operation` on the reply's first problem; nothing without a reply. */
export function assertReplyMatches(
  reply: string | null,
  refund: { amountCents: number; currency: string } | null,
  field: "editedReply" | "reply",
): void {
  if (!reply) return;
  const problem = replyContradiction(reply, refund);
  if (problem) throw decisionRefused("reply_contradicts_operation", problem, field);
}

/**
 * Throws `reply_staff_only` when the reply repeats a staff-only passage its run retrieved (a sentence
 * restating it, which no customer passage says too): the reviewer saw those passages beside the draft,
 * and neither a draft that slipped past the runtime's checks nor an edit may carry one to the customer.
 * Refused rather than cut out: the person approves the very text that is sent, or edits it.
 */
export function assertNoStaffText(
  reply: string | null,
  passages: readonly { text: string; audience: "customer" | "staff" | null }[],
  field: "editedReply" | "reply",
): void {
  if (!reply) return;
  const [sentence] = staffOnlySentences(
    reply,
    passages.map((p) => ({ text: p.text, audience: p.audience ?? "customer" })),
  );
  if (sentence)
    throw decisionRefused(
      "reply_staff_only",
      `The reply repeats guidance written for staff only, which the customer may not read: “${withoutCitations(sentence)
        .replace(/\s+([.,;:!?])/g, "$1")
        .trim()}” Take it out of the reply.`,
      field,
    );
}

/** The passages a run's recorded evidence holds (its JSON column), with whom each is for. */
export function passagesOf(evidence: unknown): { text: string; audience: "customer" | "staff" | null }[] {
  const passages = (evidence as { passages?: unknown } | null)?.passages;
  if (!Array.isArray(passages)) return [];
  return passages.flatMap((p: { text?: unknown; audience?: unknown }) =>
    typeof p?.text === "string"
      ? [{ text: p.text, audience: p.audience === "staff" ? "staff" : p.audience === "customer" ? "customer" : null }]
      : [],
  );
}
