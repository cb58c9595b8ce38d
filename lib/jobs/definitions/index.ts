// Every job's definition, by queue: a queue in QUEUES fails the typecheck until it has one here.
import type { TJobDefinition } from "../define-job";
import type { TQueueName } from "../queue";
import { AGENT_RUN_JOB } from "./agent-run";
import { APPROVAL_NOTIFY_JOB } from "./approval-notify";
import { AUDIT_CHECKPOINT_JOB } from "./audit-checkpoint";
import { BULK_ASSIGN_JOB } from "./bulk-assign";
import { EVALUATE_AGENT_JOB } from "./evaluate-agent";
import { EVALUATE_DOCUMENT_JOB } from "./evaluate-document";
import { LIVE_RUN_JOB } from "./live-run";
import { RECONCILE_PAYMENTS_JOB } from "./reconcile-payments";
import { RECONCILE_REFUNDS_JOB } from "./reconcile-refunds";
import { REFUND_EXECUTE_JOB } from "./refund-execute";
import { REMIND_APPROVALS_JOB } from "./remind-approvals";
import { REPLY_DELIVER_JOB } from "./reply-deliver";
import { RETIRE_SUPERSEDED_JOB } from "./retire-superseded";
import { SERIES_ALERTS_JOB } from "./series-alerts";
import { SWEEP_APPROVALS_JOB } from "./sweep-approvals";
import { SWEEP_RUNS_JOB } from "./sweep-runs";
import { SWEEP_SESSIONS_JOB } from "./sweep-sessions";
import { RETENTION_JOB } from "./retention";
import { SUBJECT_EXPORT_JOB } from "./subject-export";

export { AGENT_RUN_JOB, APPROVAL_NOTIFY_JOB, AUDIT_CHECKPOINT_JOB, BULK_ASSIGN_JOB, RECONCILE_REFUNDS_JOB, REFUND_EXECUTE_JOB };
export {
  REMIND_APPROVALS_JOB,
  SWEEP_APPROVALS_JOB,
  SWEEP_RUNS_JOB,
  SWEEP_SESSIONS_JOB,
  RETENTION_JOB,
  SUBJECT_EXPORT_JOB,
  EVALUATE_DOCUMENT_JOB,
  RETIRE_SUPERSEDED_JOB,
  RECONCILE_PAYMENTS_JOB,
  REPLY_DELIVER_JOB,
  EVALUATE_AGENT_JOB,
  LIVE_RUN_JOB,
  SERIES_ALERTS_JOB,
};

export const JOBS = {
  "refund-execute": REFUND_EXECUTE_JOB,
  "agent-run": AGENT_RUN_JOB,
  "live-run": LIVE_RUN_JOB,
  "bulk-assign": BULK_ASSIGN_JOB,
  "sweep-runs": SWEEP_RUNS_JOB,
  "sweep-approvals": SWEEP_APPROVALS_JOB,
  "reconcile-refunds": RECONCILE_REFUNDS_JOB,
  "audit-checkpoint": AUDIT_CHECKPOINT_JOB,
  "sweep-sessions": SWEEP_SESSIONS_JOB,
  retention: RETENTION_JOB,
  "subject-export": SUBJECT_EXPORT_JOB,
  "approval-notify": APPROVAL_NOTIFY_JOB,
  "remind-approvals": REMIND_APPROVALS_JOB,
  "evaluate-document": EVALUATE_DOCUMENT_JOB,
  "retire-superseded": RETIRE_SUPERSEDED_JOB,
  "reconcile-payments": RECONCILE_PAYMENTS_JOB,
  "reply-deliver": REPLY_DELIVER_JOB,
  "evaluate-agent": EVALUATE_AGENT_JOB,
  "series-alerts": SERIES_ALERTS_JOB,
} satisfies { [Q in TQueueName]: TJobDefinition<Q> };
