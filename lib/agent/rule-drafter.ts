// The deterministic drafter: writes the reply only from the context pack and the order, citing
// docKey@version. Every sentence that states a rule quotes or restates a cited passage.
import { policyWindowDays, refundSupported, ticketIntent } from "./rule-planner";
import { citationsIn } from "../contracts/citations";
import type { TAgentState, TDraft } from "./state";

export function formatMoney(cents: number, currency: string): string {
  return `${(cents / 100).toFixed(2)} ${currency}`;
}

export function draftReply(state: TAgentState): TDraft {
  if (state.evidence?.status !== "grounded" || state.order?.found !== true) throw new Error("draftReply needs grounded evidence and a found order");
  const order = state.order.order;
  const firstName = order.customerName.split(" ")[0] ?? "there";
  const lines = [`Hi ${firstName},`, "", `Thank you for writing to us about order ${order.id} (${order.item}).`];
  const window = policyWindowDays(state);
  const top = state.evidence.passages[0]!;

  if (ticketIntent(state.ticket) === "damaged_item" && window) {
    lines.push(`I'm sorry it arrived damaged. Electronics that arrive damaged may be returned for a full refund within ${window.days} days of delivery [${window.citation}].`);
    if (refundSupported(state)) {
      lines.push(
        `Your order was delivered ${order.daysSinceDelivery} days ago, so it qualifies: we have refunded ${formatMoney(order.refundableCents, order.currency)} to your original payment method.`,
      );
    } else if (order.refundableCents <= 0) {
      lines.push("This order has already been refunded in full.");
    } else {
      lines.push(`Your order was delivered ${order.daysSinceDelivery ?? "an unknown number of"} days ago, which is outside that window, so we cannot refund it under this policy. A member of our team will look at other options with you, such as a repair under warranty.`);
    }
  } else {
    lines.push(`Our policy says: “${top.text}” [${top.citation}]`);
  }
  lines.push("", "Kind regards,", "Customer Support");
  const text = lines.join("\n");
  return { text, citations: citationsIn(text) };
}
