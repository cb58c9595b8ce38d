// An approval is bound to the exact operation a person saw: a digest over the canonical proposal,
// the draft and the text the customer will receive for it, the versions of the policy, intake bundle
// and agent that produced them, and the hash of the policy corpus in effect (the documents its
// evidence came from). Change any of them and the digest no longer matches: the approval is stale.
import { canonicalJson, sha256Hex } from "./canonical";
import { customerReply } from "./customer-reply";
import { agentManifest } from "./manifest";

export interface TApprovalOperation {
  proposal: { orderId: string; amountCents: number; currency: string; reason: string } | null;
  draft: string | null;
  /** What the customer receives for the draft (customer-reply.ts): a change in how it is made makes the approval stale. */
  customerText: string | null;
  policyVersion: string;
  bundleVersion: string;
  agentVersion: string;
  /** The corpus in effect (countersign_corpus_hash): publishing a policy version makes the approval stale. */
  corpusHash: string;
}

/**
 * The operation an approval covers, built one way for the run that asks for it, the decision that
 * checks it is still current and a person's own reply: the proposal's four fields (nothing else a
 * proposal carries), the draft, the policy and bundle versions, the corpus hash, and the agent
 * version the manifest pins.
 */
export function approvalOperation(input: {
  proposal: TApprovalOperation["proposal"];
  draft: string | null;
  policyVersion: string;
  bundleVersion: string;
  corpusHash: string;
}): TApprovalOperation {
  const p = input.proposal;
  return {
    proposal: p ? { orderId: p.orderId, amountCents: p.amountCents, currency: p.currency, reason: p.reason } : null,
    draft: input.draft,
    customerText: input.draft === null ? null : customerReply(input.draft),
    policyVersion: input.policyVersion,
    bundleVersion: input.bundleVersion,
    agentVersion: agentManifest().agentVersion,
    corpusHash: input.corpusHash,
  };
}

export function approvalDigest(operation: TApprovalOperation): string {
  return sha256Hex(canonicalJson(operation));
}

/** How long a pending approval stays decidable. */
export const APPROVAL_TTL_MS = 72 * 60 * 60 * 1000;
