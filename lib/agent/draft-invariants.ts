// The invariants every draft keeps before a person sees it, checked by the runtime in its observation
// step whichever tool wrote the draft (the rule drafter, the model, a replacement): every citation
// names an approved passage this run retrieved, every sentence that states policy is supported by
// the words of the passage it cites, no uncited sentence promises money or a commitment, every amount
// or number of days is in a cited passage or the order this run looked up (lib/evidence/check-draft.ts),
// and the citations the tool reports are exactly those its text makes (they are what the run records
// and the pages link).
import { citationsIn } from "../contracts/citations";
import { checkDraft, describeDraftProblem, type TDraftProblem } from "../evidence/check-draft";
import type { TAgentState, TDraft } from "./state";
import { orderNumbers, orderTerms } from "./tools";

export function describeDraftProblems(problems: TDraftProblem[]): string {
  return `draft failed its checks: ${problems.map(describeDraftProblem).join("; ")}`;
}

/** What is wrong with a draft in this run's state, in words for the trace; null when nothing is. */
export function draftProblem(draft: TDraft, state: TAgentState): string | null {
  const retrieved = state.evidence?.status === "grounded" ? state.evidence.passages : [];
  const order = state.order?.found ? state.order.order : null;
  const problems = checkDraft({
    draft: draft.text,
    retrieved,
    orderNumbers: order ? orderNumbers(order) : [],
    orderTerms: order ? orderTerms(order) : [],
  });
  if (problems.length) return describeDraftProblems(problems);
  const made = citationsIn(draft.text);
  if (made.length !== new Set(draft.citations).size || made.some((c) => !draft.citations.includes(c))) {
    return `draft reports citations [${draft.citations.join(", ")}] but its text cites [${made.join(", ")}]`;
  }
  return null;
}
