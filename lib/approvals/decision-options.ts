// What a person may do with an approval request, and if not, why: the one answer the ticket page,
// the batch preview, the keyboard's approve key and decideApproval all ask (the page renders it, the
// domain enforces it), so a button is offered exactly when the decision would be taken. Pure: the
// facts are read by loadDecisionFacts (load-decidable.ts) in one statement.
import type { Role } from "../../generated/prisma/enums";
import { AppError, type TErrorCode } from "../contracts/app-error";
import { roleRefusal, seatRefusal, type TApproverTerms } from "../policy/approver-rules";

/** The codes a refused decision carries (lib/contracts/app-error.ts); the page branches on them. */
export const DECISION_REFUSALS = [
  "not_found",
  "already_decided",
  "expired",
  "stale",
  "superseded",
  "role_insufficient",
  "note_required",
  "reply_required",
  "reply_contradicts_operation",
  "reply_staff_only",
  "operation_changed",
  "ticket_busy",
  "second_approver_required",
  "approved_meanwhile",
  "run_starter_excluded",
  "amount_not_lowered",
  "exceeds_refundable",
] as const satisfies readonly TErrorCode[];
export type TDecisionRefusal = (typeof DECISION_REFUSALS)[number];

/** A decision refused: an AppError whose code is one of DECISION_REFUSALS (and the form's field it is about, if any). */
export function decisionRefused(code: TDecisionRefusal, message: string, field?: string): AppError<TDecisionRefusal> {
  return new AppError(code, message, field);
}

/** The decisions a request already has: who, and which way, in seat order. */
export type TDecisionsSoFar = { deciderId: string | null; decision: "approve" | "reject" }[];

/** Everything the rules read about a request. */
export interface TDecisionFacts extends TApproverTerms {
  id: string;
  ticketId: string;
  status: string;
  digest: string;
  decisions: TDecisionsSoFar;
  expiresAt: Date;
  /** Made under a policy or agent other than the one in force now (lib/policy/approval-versions.ts). */
  stale: boolean;
  /** The refund, and what its order still allows (lib/orders/refund-facts.ts); null for a reply. */
  refund: { orderId: string; amountCents: number; currency: string; refundableCents: number } | null;
}

export interface TDecisionIntent {
  decision: "approve" | "reject";
  /** The digest the person was shown; absent when asking what to offer. */
  digest?: string;
  /** An approval of a lowered refund: the amount approved. */
  amountCents?: number;
}

export type TRefusal = { code: TDecisionRefusal; message: string };

/** Why `viewer` may not take this decision now, or null when they may. */
export function decisionRefusal(
  request: TDecisionFacts,
  viewer: { id: string; role: Role },
  now: Date,
  intent: TDecisionIntent,
): TRefusal | null {
  return (
    stateRefusal(request, now, viewer, intent.digest) ??
    seatRefusal(
      viewer.id,
      request,
      request.decisions.map((d) => d.deciderId),
      intent.decision,
    ) ??
    amountRefusal(request, intent) ??
    refundRefusal(request, intent)
  );
}

/** An amount sent with a decision: an approval may lower the refund, never raise it; a rejection is of the request as it is. */
function amountRefusal(request: TDecisionFacts, intent: TDecisionIntent): TRefusal | null {
  if (intent.amountCents === undefined) return null;
  const proposed = request.refund?.amountCents;
  if (intent.decision === "reject") {
    return intent.amountCents === proposed
      ? null
      : { code: "amount_not_lowered", message: "Only an approval may change the amount; reject the request as it is." };
  }
  if (proposed === undefined) return { code: "amount_not_lowered", message: "This request has no refund to change." };
  if (Number.isSafeInteger(intent.amountCents) && intent.amountCents > 0 && intent.amountCents <= proposed) return null;
  const currency = request.refund!.currency;
  return {
    code: "amount_not_lowered",
    message: `The refund may only be lowered: between 0.01 and ${(proposed / 100).toFixed(2)} ${currency}. To refund more, run the agent again.`,
  };
}

// The order of the checks is the order of the answers: a request that is gone says so before
// anything about the person.
function stateRefusal(request: TDecisionFacts, now: Date, viewer: { role: Role }, digest: string | undefined): TRefusal | null {
  const expired: TRefusal = {
    code: "expired",
    message: `This request expired at ${request.expiresAt.toISOString()}. Run the agent again for a fresh one.`,
  };
  if (request.status === "superseded")
    return { code: "superseded", message: "A newer run of the agent replaced this request. Review the newest one on the ticket." };
  if (request.status === "expired") return expired;
  const decided =
    request.status !== "pending" ||
    request.decisions.length >= request.approvalsRequired ||
    request.decisions.some((d) => d.decision === "reject");
  if (decided) return { code: "already_decided", message: "This request has already been decided." };
  const role = roleRefusal(viewer.role, request);
  if (role) return role;
  if (digest !== undefined && digest !== request.digest)
    return { code: "operation_changed", message: "The request changed since you opened it. Reload the ticket and review it again." };
  if (now > request.expiresAt) return expired;
  if (request.stale)
    return {
      code: "stale",
      message:
        "The policy, intake bundle or agent changed since this request was made (a setting, a policy document published or retired, a new release). Run the agent again for a fresh one.",
    };
  return null;
}

/** An approval pays only what the order still allows. */
function refundRefusal(request: TDecisionFacts, intent: TDecisionIntent): TRefusal | null {
  const refund = request.refund;
  if (intent.decision !== "approve" || !refund) return null;
  const amount = intent.amountCents ?? refund.amountCents;
  if (amount <= refund.refundableCents) return null;
  const left = (refund.refundableCents / 100).toFixed(2);
  const message =
    refund.refundableCents === 0
      ? `Nothing remains refundable on ${refund.orderId}: earlier refunds used it all. This refund cannot be paid; reject it.`
      : `Only ${left} ${refund.currency} remains refundable on ${refund.orderId}: lower the refund to at most ${left}, or reject it.`;
  return { code: "exceeds_refundable", message };
}

/** What the page offers: each move, the most an approval may pay, and why Approve is not offered. */
export interface TDecisionOptions {
  approve: boolean;
  reject: boolean;
  /** The highest amount an approval may carry (a lower one makes a new request); null: none. */
  maxApproveCents: number | null;
  /** Why the person may not approve (as the domain would answer), or null. */
  refusal: TRefusal | null;
}

export function decisionOptions(request: TDecisionFacts, viewer: { id: string; role: Role }, now: Date): TDecisionOptions {
  const approve = decisionRefusal(request, viewer, now, { decision: "approve" });
  const reject = decisionRefusal(request, viewer, now, { decision: "reject" });
  const refund = request.refund;
  // Refused only for the amount: a lower one, within what remains, may still be approved.
  const lowerOnly = approve?.code === "exceeds_refundable" && refund !== null && refund.refundableCents > 0;
  const maxApproveCents = refund ? (approve === null ? refund.amountCents : lowerOnly ? refund.refundableCents : null) : null;
  return { approve: approve === null, reject: reject === null, maxApproveCents, refusal: approve };
}
