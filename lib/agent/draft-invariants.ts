// The invariants every draft keeps before a person sees it, checked by the runtime in its observation
// step whichever tool wrote the draft (the rule drafter, the model, a replacement): every citation
// names an approved passage this run retrieved, every sentence that states policy is supported by
// the words of the passage it cites, no uncited sentence promises money or a commitment, every amount
// or number of days is in a cited passage or the order this run looked up (lib/evidence/check-draft.ts),
// and the citations the tool reports are exactly those its text makes (they are what the run records
// and the pages link), no sentence tells the customer a staff-only passage, and the passages it stands
// on answer the question the ticket asks. A draft that answers another question ends the run
// evidence_off_topic (the evidence, not the drafter, is what failed); any other failure
// tool_invalid_output.
import { citationsIn } from "../contracts/citations";
import type { TStopReason } from "../contracts/reason-codes";
import { checkDraft, describeDraftProblem, ticketQuestion, type TDraftProblem } from "../evidence/check-draft";
import type { TAgentState, TDraft } from "./state";
import { orderNumbers, orderTerms } from "./tools";

export function describeDraftProblems(problems: TDraftProblem[]): string {
  return `draft failed its checks: ${problems.map(describeDraftProblem).join("; ")}`;
}

/** What is wrong with a draft in this run's state: the reason the run ends for, and words for the
 * trace; null when nothing is. */
export function draftProblem(
  draft: TDraft,
  state: TAgentState,
): { reason: Extract<TStopReason, "tool_invalid_output" | "evidence_off_topic">; detail: string } | null {
  const retrieved = state.evidence?.status === "grounded" ? state.evidence.passages : [];
  const order = state.order?.found ? state.order.order : null;
  const problems = checkDraft({
    draft: draft.text,
    retrieved,
    orderNumbers: order ? orderNumbers(order) : [],
    orderTerms: order ? orderTerms(order) : [],
    question: ticketQuestion(state.ticket),
  });
  if (problems.length)
    return {
      reason: problems.some((p) => p.kind === "off_topic") ? "evidence_off_topic" : "tool_invalid_output",
      detail: describeDraftProblems(problems),
    };
  const made = citationsIn(draft.text);
  if (made.length !== new Set(draft.citations).size || made.some((c) => !draft.citations.includes(c))) {
    return {
      reason: "tool_invalid_output",
      detail: `draft reports citations [${draft.citations.join(", ")}] but its text cites [${made.join(", ")}]`,
    };
  }
  return null;
}
