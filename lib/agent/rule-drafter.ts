// The deterministic drafter: writes the reply only from the context pack and the order, citing
// docKey@version. Every sentence that states a rule, or speaks of money, quotes or restates a cited
// passage (the runtime checks each such sentence against the passage's words: check-draft.ts); the
// uncited ones state order facts only.
import { policyWindowDays, refundSupported, ticketIntent } from "./rule-planner";
import { citationsIn } from "../contracts/citations";
import type { TAgentState, TDraft } from "./state";

export function formatMoney(cents: number, currency: string): string {
  return `${(cents / 100).toFixed(2)} ${currency}`;
}

/** The retrieved passages the customer may read: a staff-only one is the reviewer's, never quoted. */
function customerPassages(state: TAgentState) {
  return state.evidence?.status === "grounded" ? state.evidence.passages.filter((p) => p.audience !== "staff") : [];
}

/** The first sentence (or clause before a semicolon) of a retrieved passage that matches, with its citation. */
function passageSentence(state: TAgentState, pattern: RegExp): { text: string; citation: string } | null {
  for (const p of customerPassages(state)) {
    const sentence = p.text.split(/(?<=[.;])\s+/).find((s) => pattern.test(s));
    if (sentence) return { text: sentence.replace(/[.;]$/, ""), citation: p.citation };
  }
  return null;
}

export function draftReply(state: TAgentState): TDraft {
  if (state.evidence?.status !== "grounded" || state.order?.found !== true)
    throw new Error("draftReply needs grounded evidence and a found order");
  const order = state.order.order;
  const firstName = order.customerName.split(" ")[0] ?? "there";
  const lines = [`Hi ${firstName},`, "", `Thank you for writing to us about order ${order.id} (${order.item}).`];
  const window = policyWindowDays(state);
  // With no passage for the customer the quotation is a staff-only one, which the draft check refuses.
  const top = customerPassages(state)[0] ?? state.evidence.passages[0]!;

  if (ticketIntent(state.ticket) === "damaged_item" && window) {
    lines.push(
      `I'm sorry it arrived damaged. Electronics that arrive damaged may be returned for a full refund within ${window.days} days of delivery [${window.citation}].`,
    );
    if (refundSupported(state)) {
      // The amount is the order's; where it goes is the passage's, cited (a sentence about money cites).
      const method = passageSentence(state, /original payment method/i);
      const amount = formatMoney(order.refundableCents, order.currency);
      lines.push(
        `Your order was delivered ${order.daysSinceDelivery} days ago, so it qualifies.`,
        method
          ? `We have refunded ${amount} to your original payment method [${method.citation}].`
          : `We have refunded ${amount} in full [${window.citation}].`,
      );
    } else if (order.refundableCents <= 0) {
      lines.push("Our records show this order has already been settled in full.");
    } else {
      lines.push(`Your order was delivered ${order.daysSinceDelivery ?? "an unknown number of"} days ago, which is outside that window.`);
      const rule = passageSentence(state, /not eligible for a refund/i);
      if (rule) lines.push(`${rule.text} [${rule.citation}].`);
      lines.push("A member of our team will look at other options with you, such as a repair under warranty.");
    }
  } else {
    lines.push(`Our policy says: “${top.text}” [${top.citation}]`);
  }
  lines.push("", "Kind regards,", "Customer Support");
  const text = lines.join("\n");
  return { text, citations: citationsIn(text) };
}
