// The agent's whole vocabulary: five allowlisted actions with exact argument schemas. Nothing here
// writes money; `issue_refund` and every other write are not words the agent can say. The runtime
// holds decisions to these schemas (lib/agent/validate-decision.ts); the model is shown the same ones.
import { z } from "zod";

/** The longest question the evidence service is asked, in characters. */
export const MAX_EVIDENCE_QUESTION_CHARS = 500;
export const ZGetPolicyEvidenceArgs = z.strictObject({ question: z.string().min(3).max(MAX_EVIDENCE_QUESTION_CHARS) });
export const ZLookupOrderArgs = z.strictObject({ order_id: z.string().min(1).max(64) });
export const ZDraftReplyArgs = z.strictObject({});
export const ZProposeRefundArgs = z.strictObject({
  order_id: z.string().min(1).max(64),
  amount_cents: z.number().int().positive().max(100_000_000),
  reason: z.string().min(3).max(500),
});
export const ZRequestHumanApprovalArgs = z.strictObject({ reason: z.string().min(1).max(500) });

export const ACTION_ARGS = {
  get_policy_evidence: ZGetPolicyEvidenceArgs,
  lookup_order: ZLookupOrderArgs,
  draft_reply: ZDraftReplyArgs,
  propose_refund: ZProposeRefundArgs,
  request_human_approval: ZRequestHumanApprovalArgs,
} as const;

export type TActionName = keyof typeof ACTION_ARGS;
export const ALLOWED_ACTIONS = Object.keys(ACTION_ARGS) as TActionName[];

export type TAllowedAction = { [K in TActionName]: { action: K; args: z.infer<(typeof ACTION_ARGS)[K]> } }[TActionName];
