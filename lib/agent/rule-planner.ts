// The default planner: deterministic rules over the run's state, no network. It asks for evidence,
// looks up the order the customer named, drafts, proposes a refund when the cited policy supports
// one, and hands the ticket to a person. It is held to exactly the same checks as a model planner.
import type { TPlanner } from "./planner";
import type { TAgentState } from "./state";

const DAMAGE_WORDS = /\b(cracked|crack|broken|broke|damaged|damage|dented|dent|shattered|defective|faulty|scratched|torn|not working|stopped working|doesn'?t work|does not work|won'?t turn on|dead on arrival)\b/gi;
const REFUND_TIMING = /\b(how long|when will|how many days|how soon)\b/i;

export type TTicketIntent = "damaged_item" | "refund_timing" | "other";

export function ticketIntent(ticket: { subject: string; body: string }): TTicketIntent {
  const text = `${ticket.subject}\n${ticket.body}`;
  if (text.match(DAMAGE_WORDS)) return "damaged_item";
  if (REFUND_TIMING.test(text)) return "refund_timing";
  return "other";
}

/** The question asked of the evidence service: focused on what the customer reports, never the
 * ticket's instructions, so a ticket cannot steer retrieval by naming documents. */
export function evidenceQuestion(ticket: { subject: string; body: string }): string {
  const text = `${ticket.subject}\n${ticket.body}`;
  switch (ticketIntent(ticket)) {
    case "damaged_item": {
      const reported = [...new Set((text.match(DAMAGE_WORDS) ?? []).map((w) => w.toLowerCase()))];
      return `refund for damaged electronics: ${reported.join(", ")}`.slice(0, 500);
    }
    case "refund_timing":
      return "how long until an approved refund reaches the payment method";
    default:
      return text.slice(0, 500);
  }
}

/** The refund window the cited policy states ("within 30 days of delivery"), if it states one. */
export function policyWindowDays(state: TAgentState): { days: number; citation: string } | null {
  if (state.evidence?.status !== "grounded") return null;
  for (const p of state.evidence.passages) {
    const m = p.text.match(/within (\d+) days of delivery/i);
    if (m) return { days: Number(m[1]), citation: p.citation };
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
    if (!state.draft) return d("draft_reply", {});
    if (!state.proposal && refundSupported(state)) {
      const order = state.order.order;
      return d("propose_refund", { order_id: order.id, amount_cents: order.refundableCents, reason: "Arrived damaged; within the policy's return window." });
    }
    return d("request_human_approval", { reason: "Draft ready for review." });
  },
};
