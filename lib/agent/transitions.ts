// Step 2 of the loop: the transition rules. An action is refused when the run's state does not
// support it yet, whatever the planner believes.
import type { TAllowedAction } from "../contracts/actions";
import type { TAgentState } from "./state";

/** Step 2: what the state must hold before an action may run. */
export function transitionProblem(action: TAllowedAction, state: TAgentState): string | null {
  switch (action.action) {
    case "draft_reply":
      if (state.evidence?.status !== "grounded") return "a draft needs grounded evidence first";
      if (state.order?.found !== true) return "a draft needs a found order first";
      if (state.draft) return "a draft already exists";
      return null;
    case "propose_refund": {
      if (state.order?.found !== true) return "a refund proposal needs a found order first";
      if (state.proposal) return "a refund was already proposed in this run";
      if (action.args.amount_cents > state.order.order.refundableCents)
        return `the amount exceeds what is still refundable (${state.order.order.refundableCents} cents)`;
      return null;
    }
    default:
      return null;
  }
}
