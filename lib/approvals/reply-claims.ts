// The reply a decision sends is held to the operation it goes out with: no amount but the refund's, no
// refund promised when none is made (lib/evidence/check-reply.ts). Asked by a decision (the draft as
// it is, or as the person edited it), a lowered refund's edit and a reply written by hand; a refusal
// names the sentence and the form's field, so the form shows it beside the reply.
import { replyContradiction } from "../evidence/check-reply";
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
