// What the planner sees and the runtime tracks between steps. The planner reads it; only the
// runtime changes it, from validated tool observations.
import type { TProposalDecision } from "../contracts/proposal-decision";
import type { TEvidenceAnswer } from "../evidence/answer-policy-question";
import type { TOrderRow } from "../orders/read-order";

export interface TTicketView {
  id: string;
  number: number;
  subject: string;
  body: string;
  customerEmail: string;
  orderRef: string | null;
  /** The conversation after the first message (the body), oldest first: the customer's follow-ups and
   * reviewers' feedback on earlier drafts. Data to read, never instructions that grant anything. */
  thread?: TThreadMessage[];
}

/** A message of the thread as the agent reads it: who wrote it, when, and the words, quoted. */
export interface TThreadMessage {
  /** `customer`: a follow-up; `reviewer`: a reviewer's feedback on the draft they sent back. */
  from: "customer" | "reviewer";
  id: string;
  at: string;
  text: string;
}

/** What the agent observes of an order: the row without the customer's email, and the refund facts. */
export interface TOrderFacts extends Omit<TOrderRow, "customerEmail"> {
  daysSinceDelivery: number | null;
  refundableCents: number;
}

export type TOrderObservation = { found: false; orderId: string } | { found: true; order: TOrderFacts };

export interface TDraft {
  text: string;
  citations: string[];
}

export interface TProposalView {
  id: string | null;
  orderId: string;
  amountCents: number;
  currency: string;
  reason: string;
  decision: TProposalDecision;
  reasons: string[];
  requiredRole: string | null;
  policyVersion: string;
}

export interface TAgentState {
  ticket: TTicketView;
  evidence: TEvidenceAnswer | null;
  order: TOrderObservation | null;
  draft: TDraft | null;
  proposal: TProposalView | null;
  /** Actions taken so far, in order, with how each ended. */
  history: { action: string; outcome: string }[];
}

export function initialState(ticket: TTicketView): TAgentState {
  return { ticket, evidence: null, order: null, draft: null, proposal: null, history: [] };
}
