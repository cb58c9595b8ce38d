// The policy gate for the agent's actions, asked after a decision is validated and before its tool
// runs. Silence means deny: an action no rule below allows is refused.
import type { TAllowedAction } from "../contracts/actions";
import type { TActionPolicyReason } from "../contracts/reason-codes";

/** Each reason in words, for the trace (a reviewer reads why the gate let a step through or not). */
export const ACTION_POLICY_REASON_LABELS = {
  allowed: "no rule objects",
  order_not_on_ticket: "not the order on the ticket",
  order_not_named_by_customer: "the customer named no order",
  not_allowlisted: "not on the allowlist",
} as const satisfies Record<TActionPolicyReason, string>;

export type TActionDecision =
  | { decision: "allow"; reasons: ["allowed"] }
  | { decision: "deny"; reasons: TActionPolicyReason[] }
  /** The enforced action replaces the proposed one. */
  | { decision: "rewrite"; reasons: TActionPolicyReason[]; action: TAllowedAction }
  /** A safe variant (handing the ticket to a person) replaces the action. */
  | { decision: "escalate"; reasons: TActionPolicyReason[] };

const ALLOW: TActionDecision = { decision: "allow", reasons: ["allowed"] };
const sameOrder = (a: string, b: string) => a.trim().toUpperCase() === b.trim().toUpperCase();

export function evaluateAction(action: TAllowedAction, ticket: { orderRef: string | null }): TActionDecision {
  switch (action.action) {
    case "get_policy_evidence":
    case "draft_reply":
    case "request_human_approval":
      return ALLOW;
    case "lookup_order":
      // Reading is free, but only the order the customer wrote about: another customer's order
      // must not find its way into this customer's reply.
      if (ticket.orderRef && !sameOrder(action.args.order_id, ticket.orderRef)) {
        return {
          decision: "rewrite",
          reasons: ["order_not_on_ticket"],
          action: { action: "lookup_order", args: { order_id: ticket.orderRef } },
        };
      }
      return ALLOW;
    case "propose_refund":
      if (!ticket.orderRef) return { decision: "escalate", reasons: ["order_not_named_by_customer"] };
      if (!sameOrder(action.args.order_id, ticket.orderRef)) return { decision: "deny", reasons: ["order_not_on_ticket"] };
      return ALLOW;
    default:
      return { decision: "deny", reasons: ["not_allowlisted"] };
  }
}
