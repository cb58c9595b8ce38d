import { deliverApprovalNotification } from "../../approvals/notify-approval";
import type { APPROVAL_NOTIFY_JOB } from "../definitions/approval-notify";
import type { TJobInput } from "./job-input";

/** One approval notification posted to the configured webhook, signed. */
export async function notifyApprovalJob({ data, client }: TJobInput<typeof APPROVAL_NOTIFY_JOB>): Promise<unknown> {
  return deliverApprovalNotification({ approvalId: data.approvalId, event: data.event, client });
}
