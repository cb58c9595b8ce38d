import { remindExpiringApprovals } from "../../approvals/remind-approvals";
import type { REMIND_APPROVALS_JOB } from "../definitions/remind-approvals";
import type { TJobInput } from "./job-input";

/** Pending requests expiring within the lead time → a reminder, once. */
export async function remindApprovalsJob({ client }: TJobInput<typeof REMIND_APPROVALS_JOB>): Promise<unknown> {
  return remindExpiringApprovals({ client });
}
