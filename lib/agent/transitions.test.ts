import { describe, expect, it } from "vitest";
import type { TAllowedAction } from "../contracts/actions";
import { initialState, type TAgentState } from "./state";
import { ORDER_FACTS as ORDER } from "../../testing/order-facts";
import { transitionProblem } from "./transitions";

const GROUNDED = {
  status: "grounded",
  question: "cracked screen refund",
  passages: [],
  citations: ["returns@1"],
} as unknown as TAgentState["evidence"];
const ABSTAIN: TAgentState["evidence"] = { status: "abstain", question: "?", passages: [], citations: [], reason: "no_approved_evidence" };

function state(over: Partial<TAgentState> = {}): TAgentState {
  return { ...initialState({ id: "t", number: 1, subject: "s", body: "b", customerEmail: "c@example.net", orderRef: "ORD-1" }), ...over };
}
const found = { found: true, order: ORDER } as const;
const missing = { found: false, orderId: "ORD-9" } as const;
const draftAction: TAllowedAction = { action: "draft_reply", args: {} };
const propose = (amount_cents: number): TAllowedAction => ({
  action: "propose_refund",
  args: { order_id: "ORD-1", amount_cents, reason: "cracked screen" },
});
const aDraft = { text: "Hello", citations: ["returns@1"] };
const aProposal = {
  id: null,
  orderId: "ORD-1",
  amountCents: 100,
  currency: "USD",
  reason: "r",
  decision: "needs_human",
  reasons: [],
  requiredRole: "REVIEWER",
  policyVersion: "p",
} as TAgentState["proposal"];

describe("transitionProblem", () => {
  it("lets a draft follow grounded evidence and a found order, once", () => {
    expect(transitionProblem(draftAction, state({ evidence: GROUNDED, order: found }))).toBeNull();
    expect(transitionProblem(draftAction, state({ evidence: GROUNDED, order: found, draft: aDraft }))).toBe("a draft already exists");
  });

  it("refuses a draft without grounded evidence or without a found order", () => {
    expect(transitionProblem(draftAction, state({ order: found }))).toBe("a draft needs grounded evidence first");
    expect(transitionProblem(draftAction, state({ evidence: ABSTAIN, order: found }))).toBe("a draft needs grounded evidence first");
    expect(transitionProblem(draftAction, state({ evidence: GROUNDED }))).toBe("a draft needs a found order first");
    expect(transitionProblem(draftAction, state({ evidence: GROUNDED, order: missing }))).toBe("a draft needs a found order first");
  });

  it("lets a proposal follow a found order, once, up to what is still refundable", () => {
    expect(transitionProblem(propose(6000), state({ order: found }))).toBeNull();
    expect(transitionProblem(propose(1), state({ order: found }))).toBeNull();
    expect(transitionProblem(propose(100), state({ order: found, proposal: aProposal }))).toBe("a refund was already proposed in this run");
  });

  it("refuses a proposal before the order is found, and one past what is still refundable", () => {
    expect(transitionProblem(propose(100), state())).toBe("a refund proposal needs a found order first");
    expect(transitionProblem(propose(100), state({ order: missing }))).toBe("a refund proposal needs a found order first");
    expect(transitionProblem(propose(6001), state({ order: found }))).toBe("the amount exceeds what is still refundable (6000 cents)");
  });

  it("puts nothing before the other actions", () => {
    for (const action of [
      { action: "get_policy_evidence", args: { question: "refund?" } },
      { action: "lookup_order", args: { order_id: "ORD-1" } },
      { action: "request_human_approval", args: { reason: "review" } },
    ] as TAllowedAction[]) {
      expect(transitionProblem(action, state())).toBeNull();
    }
  });
});
