// Every action an audit event can name: one closed list, so recordAuditEvent, recordAuditEvents and
// auditAppendArgument accept these names and no others. A new kind of event is a new name here first;
// the audit search, the checkpoints and verify read them as they are.

export const AUDIT_ACTIONS = [
  // intake and tickets
  "ticket.created",
  "ticket.resolved_by_hand",
  "ticket.assigned",
  "ticket.unassigned",
  // conversations: a customer's follow-up, a reviewer's internal note
  "message.received",
  "message.note_added",
  // the agent's runs
  "run.started",
  "run.bypassed",
  "run.stopped",
  "run.interrupted",
  "tool.called",
  "decision.blocked",
  "proposal.recorded",
  "batch.started",
  // approvals
  "approval.approved",
  "approval.rejected",
  "approval.auto_approved",
  "approval.edited",
  "approval.superseded",
  "approval.sent_back",
  "approval.expired",
  "reply.released",
  // a released reply's delivery: delivered, or failed for good (after its retries, or refused)
  "reply.delivered",
  "reply.delivery_failed",
  "reply.withdrawn",
  // the refund executor: one name per outcome (REFUND_AUDIT_ACTIONS)
  "refund.executed",
  "refund.duplicate_ignored",
  "refund.blocked_not_approved",
  "refund.blocked_approval_mismatch",
  "refund.blocked_approval_expired",
  "refund.blocked_exceeds_refundable",
  "refund.blocked_order_unavailable",
  "refund.reenqueued",
  // orders and customers from the team's systems (the orders API, the shop)
  "customer.upserted",
  // a customer's personal data erased (their id and the counts, never a value)
  "customer.erased",
  // a legal hold placed on a customer or a ticket, and lifted: it suspends erasure and retention
  "legal_hold.placed",
  "legal_hold.lifted",
  // a customer's data export: requested, then downloaded once (ids only)
  "customer.export_requested",
  "customer.export_downloaded",
  // the retention job: what it erased, by ids and counts
  "retention.applied",
  "order.upserted",
  "order.synced",
  // the refund at the payment provider (lib/payments/): each state it reports, each event taken once
  "refund.provider_state",
  "refund.provider_event",
  // settings, evaluation, the dial's evidence
  "settings.changed",
  "release.decided",
  "evaluation.started",
  "evaluation.failed",
  "annotation.assigned",
  "run.annotated",
  "episode.saved",
  "episode.promoted",
  "episode.discarded",
  "shadow.recorded",
  // policy documents: one stream per document key (subject "document")
  "document.imported",
  "document.draft_saved",
  "document.submitted",
  "document.withdrawn",
  "document.published",
  "document.publish_refused",
  "document.retired",
  // a version's evaluation before publishing (same stream)
  "document.evaluation_started",
  "document.evaluated",
  "document.evaluation_failed",
  "document.regression_acknowledged",
  // people and operations
  "auth.signed_in",
  "auth.sign_in_locked",
  "auth.signed_out",
  "auth.sign_in_burst_noticed",
  "auth.sso_policy_changed",
  "user.created",
  "user.invited",
  "user.created_at_sign_in",
  "user.identity_bound",
  "user.password_link_issued",
  "user.password_set",
  "user.role_changed",
  "user.deactivated",
  "user.reactivated",
  "user.sessions_revoked",
  "job.retried",
  "audit.exported",
] as const;
export type TAuditAction = (typeof AUDIT_ACTIONS)[number];

/** The event the refund executor records for each of its outcomes (lib/ledger's EXECUTION_OUTCOMES). */
export const REFUND_AUDIT_ACTIONS = {
  refund_created: "refund.executed",
  duplicate_ignored: "refund.duplicate_ignored",
  "blocked:not_approved": "refund.blocked_not_approved",
  "blocked:approval_mismatch": "refund.blocked_approval_mismatch",
  "blocked:approval_expired": "refund.blocked_approval_expired",
  "blocked:exceeds_refundable": "refund.blocked_exceeds_refundable",
  "blocked:order_unavailable": "refund.blocked_order_unavailable",
} as const satisfies Record<string, TAuditAction>;
