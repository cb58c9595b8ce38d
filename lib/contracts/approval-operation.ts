// An approval is bound to the exact operation a person saw: a digest over the canonical proposal,
// the draft, and the versions of the policy, intake bundle and agent that produced them. Change any
// of them and the digest no longer matches: the approval is stale.
import { canonicalJson, sha256Hex } from "./canonical";

export interface TApprovalOperation {
  proposal: { orderId: string; amountCents: number; currency: string; reason: string } | null;
  draft: string | null;
  policyVersion: string;
  bundleVersion: string;
  agentVersion: string;
}

export function approvalDigest(operation: TApprovalOperation): string {
  return sha256Hex(canonicalJson(operation));
}

/** How long a pending approval stays decidable. */
export const APPROVAL_TTL_MS = 72 * 60 * 60 * 1000;
