import { expirePendingApprovals } from "../../approvals/sweep-approvals";
import type { SWEEP_APPROVALS_JOB } from "../definitions/sweep-approvals";
import type { TJobInput } from "./job-input";

/** Pending requests past their expiry → expired. */
export async function sweepApprovalsJob({ client }: TJobInput<typeof SWEEP_APPROVALS_JOB>): Promise<unknown> {
  return expirePendingApprovals({ client });
}
