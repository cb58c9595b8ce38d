// The policy gate for refund proposals. Deny by default: a proposal reaches auto_approved only by
// passing every rule below, and the autonomy dial starts at zero, so at first nothing does.
import type { Role } from "../../generated/prisma/enums";
import type { TProposalDecision } from "../contracts/proposal-decision";
import type { TPolicySettings } from "./settings";
import { policyVersion } from "./settings";

export const REFUND_POLICY_REASONS = [
  "within_autonomy_limit",
  "above_autonomy_limit",
  "daily_cap_reached",
  "flagged_account",
  "specialist_required",
  "customer_rate_limited",
  "invalid_amount",
  "currency_mismatch",
] as const;
export type TRefundPolicyReason = (typeof REFUND_POLICY_REASONS)[number];

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
  policyVersion: string;
}

export function evaluateRefund(facts: TRefundFacts, settings: TPolicySettings): TRefundDecision {
  const version = policyVersion(settings);
  const deny = (reason: TRefundPolicyReason): TRefundDecision => ({ decision: "denied", reasons: [reason], requiredRole: null, policyVersion: version });
  if (!Number.isSafeInteger(facts.amountCents) || facts.amountCents <= 0) return deny("invalid_amount");
  if (facts.currency !== facts.orderCurrency) return deny("currency_mismatch");
  if (facts.customerProposalsToday >= settings["policy.customerRefundsPerDay"]) return deny("customer_rate_limited");

  const needsHuman: TRefundPolicyReason[] = [];
  const specialist = facts.amountCents >= settings["policy.specialistThresholdCents"];
  if (facts.customerFlagged) needsHuman.push("flagged_account");
  if (specialist) needsHuman.push("specialist_required");
  if (facts.amountCents > settings["autonomy.autoApproveLimitCents"]) needsHuman.push("above_autonomy_limit");
  else if (facts.autoApprovedTodayCents + facts.amountCents > settings["policy.dailyCapCents"]) needsHuman.push("daily_cap_reached");
  const requiredRole: Role = specialist ? "SPECIALIST" : "REVIEWER";
  if (needsHuman.length) return { decision: "needs_human", reasons: needsHuman, requiredRole, policyVersion: version };
  return { decision: "auto_approved", reasons: ["within_autonomy_limit"], requiredRole, policyVersion: version };
}
