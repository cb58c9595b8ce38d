// The policy gate for refund proposals. Deny by default: a proposal reaches auto_approved only by
// passing every rule below, and the autonomy dial starts at zero, so at first nothing does.
import type { Role } from "../../generated/prisma/enums";
import type { TProposalDecision } from "../contracts/proposal-decision";
import type { TPolicySettings } from "./settings";
import { policyVersion } from "./settings";
import type { TRefundPolicyReason } from "../contracts/reason-codes";

export interface TRefundFacts {
  amountCents: number;
  currency: string;
  orderCurrency: string;
  customerFlagged: boolean;
  /** Refunds auto-approved today across all customers. */
  autoApprovedTodayCents: number;
  /** Refund proposals for this customer today, before this one. */
  customerProposalsToday: number;
}

export interface TRefundDecision {
  decision: TProposalDecision;
  reasons: TRefundPolicyReason[];
  /** Who may approve it: a specialist at or above the threshold, otherwise a reviewer. */
  requiredRole: Role | null;
  /** How many different people must approve it: two at or above the two-person threshold. */
  approvalsRequired: 1 | 2;
  policyVersion: string;
}

export function evaluateRefund(facts: TRefundFacts, settings: TPolicySettings): TRefundDecision {
  const version = policyVersion(settings);
  const deny = (reason: TRefundPolicyReason): TRefundDecision => ({
    decision: "denied",
    reasons: [reason],
    requiredRole: null,
    approvalsRequired: 1,
    policyVersion: version,
  });
  if (!Number.isSafeInteger(facts.amountCents) || facts.amountCents <= 0) return deny("invalid_amount");
  if (facts.currency !== facts.orderCurrency) return deny("currency_mismatch");
  if (facts.customerProposalsToday >= settings["policy.customerRefundsPerDay"]) return deny("customer_rate_limited");

  const needsHuman: TRefundPolicyReason[] = [];
  const specialist = facts.amountCents >= settings["policy.specialistThresholdCents"];
  if (facts.customerFlagged) needsHuman.push("flagged_account");
  if (specialist) needsHuman.push("specialist_required");
  const approvalsRequired = approvalsRequiredFor(facts.amountCents, settings);
  if (approvalsRequired === 2) needsHuman.push("two_person_required");
  if (facts.amountCents > settings["autonomy.autoApproveLimitCents"]) needsHuman.push("above_autonomy_limit");
  else if (facts.autoApprovedTodayCents + facts.amountCents > settings["policy.dailyCapCents"]) needsHuman.push("daily_cap_reached");
  const { requiredRole } = approvalGate(facts.amountCents, settings);
  if (needsHuman.length) return { decision: "needs_human", reasons: needsHuman, requiredRole, approvalsRequired, policyVersion: version };
  return { decision: "auto_approved", reasons: ["within_autonomy_limit"], requiredRole, approvalsRequired, policyVersion: version };
}

/** Who may approve a refund of this amount, and how many of them: the gate a person's approval goes
 * through, for the agent's proposal and for a person's lowered amount alike. */
export function approvalGate(amountCents: number, settings: TPolicySettings): { requiredRole: Role; approvalsRequired: 1 | 2 } {
  return {
    requiredRole: amountCents >= settings["policy.specialistThresholdCents"] ? "SPECIALIST" : "REVIEWER",
    approvalsRequired: approvalsRequiredFor(amountCents, settings),
  };
}

function approvalsRequiredFor(amountCents: number, settings: TPolicySettings): 1 | 2 {
  return amountCents >= settings["policy.twoPersonThresholdCents"] ? 2 : 1;
}
