// The default planner: deterministic rules over the run's state, no network. It asks for evidence,
// looks up the order the customer named, drafts, proposes a refund when the cited policy supports
// one, and hands the ticket to a person. It is held to exactly the same checks as a model planner.
import type { TPlanner } from "./planner";
import { clearLanguage, ticketLanguage } from "../evidence/language";
import type { TRetrievedPassage } from "../evidence/retrieve-passages";
import type { TAgentState } from "./state";
import { MAX_EVIDENCE_QUESTION_CHARS } from "../contracts/actions";

const DAMAGE_WORDS =
  /\b(cracked|crack|broken|broke|damaged|damage|dented|dent|shattered|defective|faulty|scratched|torn|not working|stopped working|doesn'?t work|does not work|won'?t turn on|dead on arrival)\b/gi;

/**
 * What an English ticket asks, and the words its intent adds to the question the evidence service is
 * asked: the policies' own words for it, so that an ordinary question ("how long do I have?") still
 * meets the passage that answers it. The ticket's own words come first (evidenceQuestion): they tell
 * the specific document (clothing, a region, a marketplace seller) from the general one. The first
 * intent whose pattern matches wins; a ticket that matches none asks in its own words alone.
 */
const INTENTS = [
  {
    intent: "damaged_item",
    pattern: DAMAGE_WORDS,
    question: "refund for damaged electronics that arrive damaged, returned within days of delivery",
  },
  {
    intent: "return_window",
    pattern:
      /\b(return window|return period|return policy|days to return|time to return|can i (still )?(return|send)|still (return|eligible)|eligible for a (refund|return)|too late to return|how long do i have)\b/i,
    question:
      "within how many days of delivery may an item be returned for a refund, and is an order delivered more than 30 days ago eligible",
  },
  {
    intent: "refund_timing",
    pattern:
      /\b(how long|when will|how many days|how soon|when do i get|when can i expect)\b.*\b(refund|money|credit)|\b(refund|money)\b.*\b(arrive|reach|take|back|show up)\b/i,
    question: "how long until an approved refund reaches the original payment method, in business days",
  },
  {
    intent: "refund_method",
    pattern: /\b(payment method|credit card|debit card|paypal|store credit|gift card|bank account|which card|original payment)\b/i,
    question: "refunds are issued to the original payment method",
  },
  {
    intent: "refund_approval",
    pattern: /\b(who (approves|decides|signs off)|needs? approval|approved by|manager|supervisor|specialist)\b/i,
    question: "who must approve a refund: a support reviewer or a support specialist",
  },
  {
    intent: "response_time",
    pattern:
      /\b(response time|first response|hear back|respond|reply|answer)\b.*\b(how long|when|hours|soon)\b|\b(how long|when)\b.*\b(respond|reply|hear back|answer)\b/i,
    question: "how soon does every ticket receive a first response, in hours",
  },
] as const;

export type TTicketIntent = (typeof INTENTS)[number]["intent"] | "other";

const textOf = (ticket: { subject: string; body: string }) => `${ticket.subject}\n${ticket.body}`;

export function ticketIntent(ticket: { subject: string; body: string }): TTicketIntent {
  const text = textOf(ticket);
  return INTENTS.find((i) => text.match(new RegExp(i.pattern.source, "i")))?.intent ?? "other";
}

/** The question asked of the evidence service for a ticket: its own words (ownWords), searched in the
 * documents of the ticket's language (the service says so when none is written in it), followed for
 * an English ticket with a known intent by its intent's words (INTENTS). Of such a ticket too long
 * for the question only the sentences that ask (askingSentences) are kept: a long story before "it
 * arrived cracked" would otherwise crowd out the words that ask, or dilute them until no passage
 * covers the question. The ticket's words only rank passages:
 * only passages in effect can come back, each must cover enough of the question to be evidence, and
 * naming a document adds nothing (searchTerms). */
export function evidenceQuestion(ticket: { subject: string; body: string }): string {
  const language = ticketLanguage(ticket);
  const known = language === "en" ? INTENTS.find((i) => i.intent === ticketIntent(ticket)) : undefined;
  if (!known) return ownWords(ticket, language);
  const room = MAX_EVIDENCE_QUESTION_CHARS - known.question.length - 1;
  const whole = ownWords(ticket, language);
  // The intent's words always fit: a ticket too long for both gives up its story, then its tail.
  const own =
    `${ticket.body}\n${ticket.subject}`.length <= room
      ? whole
      : ownWords({ subject: ticket.subject, body: askingSentences(ticket.body, known.pattern) }, language);
  return `${own.slice(0, room)}\n${known.question}`;
}

/** The sentences of `body` that ask: questions, and those in which its intent's pattern is found, in
 * order; the whole body when there are none (the pattern found only across sentences or in the subject). */
export function askingSentences(body: string, pattern: RegExp): string {
  const sentences = body.split(/(?<=[.!?])\s+|\n+/).filter((s) => s.trim() !== "");
  const asking = sentences.filter((s) => s.trim().endsWith("?") || new RegExp(pattern.source, "i").test(s));
  return asking.length > 0 ? asking.join(" ") : body;
}

/** A ticket's own words as a question: the body first, then the subject unless it is clearly in
 * another language than the ticket (an English subject line over a Spanish body searches Spanish
 * documents with words they do not have); capped. */
export function ownWords(ticket: { subject: string; body: string }, language: string): string {
  const subject = clearLanguage(ticket.subject);
  return (subject === null || subject === language ? `${ticket.body}\n${ticket.subject}` : ticket.body).slice(
    0,
    MAX_EVIDENCE_QUESTION_CHARS,
  );
}

/** The retrieved passages a reply may quote to the customer: staff-only ones are for the reviewer. */
export function customerPassages(state: TAgentState): TRetrievedPassage[] {
  return state.evidence?.status === "grounded" ? state.evidence.passages.filter((p) => p.audience !== "staff") : [];
}

/** The refund window for an item that arrives damaged, as a customer passage states it ("… that arrive
 * damaged … within 30 days of delivery"), if one does. A window stated for something else (changing
 * one's mind, a bundle; a passage that only refers to "the damaged-electronics policy") is not it:
 * the draft says "Electronics that arrive damaged may be returned … within N days" and cites it. */
export function policyWindowDays(state: TAgentState): { days: number; citation: string } | null {
  for (const p of customerPassages(state)) {
    const m = p.text.match(/within (\d+) days of delivery/i);
    if (m && /\barriv\w* damaged\b/i.test(p.text)) return { days: Number(m[1]), citation: p.citation };
  }
  return null;
}

/** Whether the cited policy supports refunding this order in full. */
export function refundSupported(state: TAgentState): boolean {
  if (ticketIntent(state.ticket) !== "damaged_item" || state.order?.found !== true) return false;
  const window = policyWindowDays(state);
  const { daysSinceDelivery, refundableCents } = state.order.order;
  return !!window && daysSinceDelivery !== null && daysSinceDelivery <= window.days && refundableCents > 0;
}

export const rulePlanner: TPlanner = {
  id: "rule",
  async decide(state) {
    const d = (action: string, args: Record<string, unknown>) => ({ decision: { action, args } });
    const { ticket } = state;
    if (!state.evidence) return d("get_policy_evidence", { question: evidenceQuestion(ticket) });
    if (state.evidence.status === "abstain") return d("request_human_approval", { reason: "No approved policy covers this ticket." });
    if (!state.order) {
      if (!ticket.orderRef) return d("request_human_approval", { reason: "The ticket names no order." });
      return d("lookup_order", { order_id: ticket.orderRef });
    }
    if (!state.order.found) return d("request_human_approval", { reason: `Order ${state.order.orderId} was not found.` });
    if (!state.draft) {
      // A reply quotes what the customer may read; when only staff-only passages answer, a person does.
      if (!customerPassages(state).length) return d("request_human_approval", { reason: "Only staff-only policy covers this ticket." });
      return d("draft_reply", {});
    }
    if (!state.proposal && refundSupported(state)) {
      const order = state.order.order;
      return d("propose_refund", {
        order_id: order.id,
        amount_cents: order.refundableCents,
        reason: "Arrived damaged; within the policy's return window.",
      });
    }
    return d("request_human_approval", { reason: "Draft ready for review." });
  },
};
