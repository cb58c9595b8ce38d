// Every job's handler, by queue, beside its definition: a queue in QUEUES fails the typecheck until
// it has both, and a handler that reads what its definition's payload does not carry fails it too.
import { JOBS } from "../definitions";
import type { TJobDefinition } from "../define-job";
import { QUEUES, type TQueueName } from "../queue";
import { runBatchTicket } from "./agent-run";
import { notifyApprovalJob } from "./approval-notify";
import { signCheckpointJob } from "./audit-checkpoint";
import { assignBatchTicket } from "./bulk-assign";
import { evaluateAgentJob } from "./evaluate-agent";
import { evaluateDocumentJob } from "./evaluate-document";
import { runLiveTicket } from "./live-run";
import type { TJobHandler } from "./job-input";
import { reconcilePaymentsJob } from "./reconcile-payments";
import { reconcileRefundsJob } from "./reconcile-refunds";
import { settleRefundJob } from "./refund-execute";
import { remindApprovalsJob } from "./remind-approvals";
import { deliverReplyJob } from "./reply-deliver";
import { retireSupersededJob } from "./retire-superseded";
import { seriesAlertsJob } from "./series-alerts";
import { sweepApprovalsJob } from "./sweep-approvals";
import { sweepRunsJob } from "./sweep-runs";
import { sweepSessionsJob } from "./sweep-sessions";
import { retentionJob } from "./retention";
import { subjectExportJob } from "./subject-export";

export const HANDLERS = {
  "refund-execute": settleRefundJob,
  "agent-run": runBatchTicket,
  "live-run": runLiveTicket,
  "bulk-assign": assignBatchTicket,
  "sweep-runs": sweepRunsJob,
  "sweep-approvals": sweepApprovalsJob,
  "reconcile-refunds": reconcileRefundsJob,
  "audit-checkpoint": signCheckpointJob,
  "sweep-sessions": sweepSessionsJob,
  retention: retentionJob,
  "subject-export": subjectExportJob,
  "approval-notify": notifyApprovalJob,
  "remind-approvals": remindApprovalsJob,
  "evaluate-document": evaluateDocumentJob,
  "retire-superseded": retireSupersededJob,
  "reconcile-payments": reconcilePaymentsJob,
  "reply-deliver": deliverReplyJob,
  "evaluate-agent": evaluateAgentJob,
  "series-alerts": seriesAlertsJob,
} satisfies { [Q in TQueueName]: TJobHandler<(typeof JOBS)[Q]> };

/** Each queue's definition with its handler, for the worker; the map above checked each pair's types. */
export const WORKED_JOBS: readonly { job: TJobDefinition; handle: TJobHandler }[] = Object.values(QUEUES).map((queue) => ({
  job: JOBS[queue],
  handle: HANDLERS[queue] as TJobHandler,
}));
