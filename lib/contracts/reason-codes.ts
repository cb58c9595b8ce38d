// The one vocabulary of stop statuses and reasons, shared by the runtime, the database, the pages and
// the tests. A reason not listed here cannot be produced: the types refuse it. The statuses are tied
// to the database's enums (RunStatus, TicketStatus): a value added on either side fails the typecheck
// here and in every map keyed by them.
import type { RefundState, RunStatus, TicketStatus } from "../../generated/prisma/enums";
import type { TSameMembers } from "./same-members";

/** How a run ends: a status both a run and its ticket can have. */
export const STOP_STATUSES = ["bypassed", "blocked", "needs_human", "auto_approved", "completed"] as const satisfies readonly (RunStatus & TicketStatus)[];
export type TStopStatus = (typeof STOP_STATUSES)[number];

/** Every status a run can end with, and nothing else: the run statuses but running and interrupted. */
const _everyRunEnding: TSameMembers<TStopStatus, Exclude<RunStatus, "running" | "interrupted">> = true;

export const STOP_REASONS = [
  // admission
  "stale_intake_bundle",
  "unverified_route",
  "classifier_human_review",
  // decision validation
  "invalid_decision",
  "invalid_action",
  "forbidden_action",
  "invalid_arguments",
  "missing_arguments",
  "unexpected_arguments",
  "invalid_argument_types",
  // transitions and state
  "invalid_state_transition",
  "missing_order",
  "order_customer_mismatch",
  "no_approved_evidence",
  "unsupported_language",
  "evidence_off_topic",
  "draft_ready_for_review",
  "planner_requested_handoff",
  // budgets
  "step_budget_exhausted",
  "token_budget_exceeded",
  "latency_budget_exceeded",
  // tools and planners
  "tool_timeout",
  "tool_error",
  "tool_invalid_output",
  "planner_error",
  // policy
  "policy_denied",
  "refund_auto_approved",
] as const;
export type TStopReason = (typeof STOP_REASONS)[number];

/** Which status each reason ends a run with: a reason never appears under another status. */
export const STATUS_OF_REASON = {
  stale_intake_bundle: "bypassed",
  unverified_route: "bypassed",
  classifier_human_review: "bypassed",
  invalid_decision: "blocked",
  invalid_action: "blocked",
  forbidden_action: "blocked",
  invalid_arguments: "blocked",
  missing_arguments: "blocked",
  unexpected_arguments: "blocked",
  invalid_argument_types: "blocked",
  invalid_state_transition: "blocked",
  policy_denied: "blocked",
  missing_order: "needs_human",
  order_customer_mismatch: "needs_human",
  no_approved_evidence: "needs_human",
  unsupported_language: "needs_human",
  evidence_off_topic: "needs_human",
  draft_ready_for_review: "needs_human",
  planner_requested_handoff: "needs_human",
  step_budget_exhausted: "needs_human",
  token_budget_exceeded: "needs_human",
  latency_budget_exceeded: "needs_human",
  tool_timeout: "needs_human",
  tool_error: "needs_human",
  tool_invalid_output: "needs_human",
  planner_error: "needs_human",
  refund_auto_approved: "auto_approved",
} as const satisfies Record<TStopReason, TStopStatus>;

/** The reasons that end a run with status S (e.g. the hand-overs: TReasonOf<"needs_human">). */
export type TReasonOf<S extends TStopStatus> = { [R in TStopReason]: (typeof STATUS_OF_REASON)[R] extends S ? R : never }[TStopReason];

/** Words a reviewer understands; the code is shown beside them. */
export const REASON_LABELS = {
  stale_intake_bundle: "Routed by an intake bundle that is no longer pinned",
  unverified_route: "Route signature missing or invalid",
  classifier_human_review: "Intake sent it straight to a person",
  invalid_decision: "The planner's answer was not a decision",
  invalid_action: "The planner asked for an action that does not exist",
  forbidden_action: "The planner asked for an action it may never take",
  invalid_arguments: "The action's arguments were invalid",
  missing_arguments: "The action was missing arguments",
  unexpected_arguments: "The action had arguments it does not take",
  invalid_argument_types: "The action's arguments had the wrong types",
  invalid_state_transition: "The action came out of order",
  missing_order: "The order could not be found",
  order_customer_mismatch: "The order belongs to another customer than the ticket's",
  no_approved_evidence: "No approved policy covers this ticket",
  unsupported_language: "The ticket is in a language no approved policy is written in",
  evidence_off_topic: "The policy found does not answer what the ticket asks",
  draft_ready_for_review: "A cited draft is ready for review",
  planner_requested_handoff: "The agent handed the ticket to a person",
  step_budget_exhausted: "Step budget used up",
  token_budget_exceeded: "Token budget exceeded",
  latency_budget_exceeded: "Time budget exceeded",
  tool_timeout: "A tool did not answer in time",
  tool_error: "A tool failed",
  tool_invalid_output: "A tool returned something unexpected",
  planner_error: "The planner failed",
  policy_denied: "The policy refused the action",
  refund_auto_approved: "Refund auto-approved within the autonomy dial",
} as const satisfies Record<TStopReason, string>;

/** Every status a ticket or a run can have, in words. */
export const STATUS_LABELS = {
  bypassed: "Bypassed",
  blocked: "Blocked",
  needs_human: "Needs a person",
  auto_approved: "Auto-approved",
  completed: "Completed",
  running: "Running",
  open: "Open",
  resolved: "Resolved",
  approved: "Refund approved, executing",
  interrupted: "Interrupted",
} as const satisfies Record<TicketStatus | RunStatus, string>;

export function isStopReason(value: unknown): value is TStopReason {
  return typeof value === "string" && (STOP_REASONS as readonly string[]).includes(value);
}

// ── The other reason lists, each kept here with the stop reasons so that one file holds every
// reason the app can give; the part that produces it imports it from here.

/** The action policy's reasons (lib/policy/evaluate-action.ts). */
export const ACTION_POLICY_REASONS = ["allowed", "order_not_on_ticket", "order_not_named_by_customer", "not_allowlisted"] as const;
export type TActionPolicyReason = (typeof ACTION_POLICY_REASONS)[number];

/** The refund policy's reasons (lib/policy/evaluate-refund.ts). */
export const REFUND_POLICY_REASONS = [
  "within_autonomy_limit",
  "above_autonomy_limit",
  "daily_cap_reached",
  "flagged_account",
  "specialist_required",
  "two_person_required",
  "customer_rate_limited",
  "invalid_amount",
  "currency_mismatch",
] as const;
export type TRefundPolicyReason = (typeof REFUND_POLICY_REASONS)[number];

/** The refund executor's answers (lib/ledger/execute-approved-refund.ts): one audit action each (REFUND_AUDIT_ACTIONS). */
export const EXECUTION_OUTCOMES = [
  "refund_created",
  "duplicate_ignored",
  "blocked:not_approved",
  "blocked:approval_mismatch",
  "blocked:approval_expired",
  "blocked:exceeds_refundable",
  "blocked:order_unavailable",
] as const;
export type TExecutionOutcome = (typeof EXECUTION_OUTCOMES)[number];

/** Why a release holds (lib/eval/decide-release.ts): the part of its reason before the colon, checked in this order. */
export const HOLD_REASONS = ["agent_version", "dataset_version", "dataset_drift", "grader_version", "missing", "duplicate", "unexpected", "failed"] as const;
export type THoldReason = (typeof HOLD_REASONS)[number];

/** Reasons the ticket lifecycle gives a ticket, apart from a run's stop reasons (lib/tickets/lifecycle.ts). */
export const LIFECYCLE_REASONS = [
  "run_interrupted",
  "approval_rejected",
  "refund_blocked",
  "refund_failed",
  "refund_failed_after_reply",
  // a conversation moving on (lib/conversations/receive-follow-up.ts, lib/approvals/send-back.ts)
  "customer_follow_up",
  "reopened_by_customer",
  "reviewer_feedback",
] as const;
export type TLifecycleReason = (typeof LIFECYCLE_REASONS)[number];

/**
 * Why a pending approval request was superseded by something other than a newer run: the customer
 * wrote again (what the request's digest covers no longer answers what the customer said), or a
 * reviewer sent the draft back to the agent with feedback. Stored on the request (supersededReason).
 */
export const SUPERSEDE_REASONS = ["customer_follow_up", "reviewer_feedback"] as const satisfies readonly TLifecycleReason[];
export type TSupersedeReason = (typeof SUPERSEDE_REASONS)[number];

/** Why the evidence service abstains (lib/evidence/answer-policy-question.ts); both are stop reasons too. */
export const ABSTAIN_REASONS = ["no_approved_evidence", "unsupported_language"] as const;
export type TAbstainReason = (typeof ABSTAIN_REASONS)[number];

/** Where approved refunds are executed (lib/payments/): the ledger alone, Stripe, or the Shopify shop. */
export const PAYMENT_PROVIDERS = ["ledger-only", "stripe", "shopify"] as const;
export type TPaymentProvider = (typeof PAYMENT_PROVIDERS)[number];

/** A refund's state at the provider as the ledger records it; `requested` is ours (written before the call). */
export const REFUND_STATES = ["requested", "pending", "requires_action", "succeeded", "failed", "canceled"] as const satisfies readonly RefundState[];
export type TRefundState = (typeof REFUND_STATES)[number];
const _everyRefundState: TSameMembers<TRefundState, RefundState> = true;

/** The states after which nothing is waited for (a succeeded refund may still fail, reported by an event). */
export const FINAL_REFUND_STATES = ["succeeded", "failed", "canceled"] as const satisfies readonly TRefundState[];

/**
 * Why a refund did not complete at the provider: Stripe's own failure reasons (Refund.failure_reason),
 * and ours – `canceled` (the refund was canceled), `provider_refused` (the provider refused the
 * request itself, e.g. more than the charge has left), `payment_reference_missing` (the order names no
 * payment to refund).
 */
export const REFUND_FAILURE_REASONS = [
  "charge_for_pending_refund_disputed",
  "declined",
  "expired_or_canceled_card",
  "insufficient_funds",
  "lost_or_stolen_card",
  "merchant_request",
  "unknown",
  "canceled",
  "provider_refused",
  "payment_reference_missing",
] as const;
export type TRefundFailureReason = (typeof REFUND_FAILURE_REASONS)[number];

/** A provider's reason as one of ours: anything we do not know is `unknown`. */
export function refundFailureReason(value: string | null | undefined): TRefundFailureReason {
  return (REFUND_FAILURE_REASONS as readonly string[]).includes(value ?? "") ? (value as TRefundFailureReason) : "unknown";
}

export const REFUND_STATE_LABELS = {
  requested: "Requested, waiting for the provider",
  pending: "Pending at the provider",
  requires_action: "Waiting for action at the provider",
  succeeded: "Succeeded",
  failed: "Failed",
  canceled: "Canceled",
} as const satisfies Record<TRefundState, string>;

/** A person's verdict on an agent run (lib/eval/annotate-run.ts). */
export const ANNOTATION_VERDICTS = ["correct", "wrong"] as const;
export type TAnnotationVerdict = (typeof ANNOTATION_VERDICTS)[number];

/** Why a run was wrong: the closed list a reviewer or lead chooses from. */
export const ANNOTATION_REASONS = ["reply_wrong", "amount_wrong", "refund_not_due", "refund_due", "should_hand_off", "citation_wrong", "other"] as const;
export type TAnnotationReason = (typeof ANNOTATION_REASONS)[number];

export const ANNOTATION_REASON_LABELS = {
  reply_wrong: "The reply was wrong or needed rewriting",
  amount_wrong: "The refund amount was wrong",
  refund_not_due: "No refund was due",
  refund_due: "A refund was due and not proposed",
  should_hand_off: "A person should have taken it",
  citation_wrong: "It cited the wrong policy",
  other: "Something else (say it in the corrected reply)",
} as const satisfies Record<TAnnotationReason, string>;

/** Why a run waits for annotation: a person rejected it, edited it, or it was sampled among approvals. */
export const ANNOTATION_SOURCES = ["rejected", "edited", "sampled"] as const;
export type TAnnotationSource = (typeof ANNOTATION_SOURCES)[number];
