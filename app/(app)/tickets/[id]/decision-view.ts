// What the ticket page shows of a waiting request for the person looking at it: the answer of the
// decision rules (lib/approvals/decision-options.ts), in the page's terms. No rule is decided here:
// a button is enabled exactly when decideApproval would take the decision, and a refusal is shown in
// the domain's own words.
import { decisionOptions, type TDecisionFacts, type TDecisionRefusal } from "@/lib/approvals/decision-options";
import type { Role } from "@/lib/contracts/roles";

/** Refusals a fresh run of the agent answers: the request was made under what no longer holds. */
const FRESH_RUN_REFUSALS: ReadonlySet<TDecisionRefusal> = new Set(["stale", "expired", "superseded"]);

export interface TDecisionView {
  heading: string;
  canApprove: boolean;
  canReject: boolean;
  /** The highest amount an approval may carry; null when the viewer may approve no amount. */
  maxApproveCents: number | null;
  /** Why the request can no longer be decided by anyone (stale, expired): a fresh run is offered. */
  blocked?: string;
  /** Why this viewer may not approve (or decide at all). */
  whyNot?: string;
  refusalCode: TDecisionRefusal | null;
}

export function decisionView(request: TDecisionFacts, viewer: { id: string; role: Role }, now: Date): TDecisionView {
  const options = decisionOptions(request, viewer, now);
  const refusal = options.refusal;
  const mayDecide = options.approve || options.reject;
  const fresh = refusal !== null && FRESH_RUN_REFUSALS.has(refusal.code);
  return {
    heading: mayDecide ? "Waiting for your decision" : `Waiting for a decision`,
    canApprove: options.approve || options.maxApproveCents !== null,
    canReject: options.reject,
    maxApproveCents: options.maxApproveCents,
    blocked: fresh ? refusal.message : undefined,
    whyNot: refusal && !fresh ? refusal.message : undefined,
    refusalCode: refusal?.code ?? null,
  };
}
