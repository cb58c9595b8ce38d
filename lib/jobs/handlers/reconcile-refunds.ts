import { reconcileApprovedRefunds } from "../../approvals/reconcile-refunds";
import type { RECONCILE_REFUNDS_JOB } from "../definitions/reconcile-refunds";
import type { TJobInput } from "./job-input";

/** Approved refunds with no outcome and no job → a job again, audited. */
export async function reconcileRefundsJob({ client }: TJobInput<typeof RECONCILE_REFUNDS_JOB>): Promise<unknown> {
  return reconcileApprovedRefunds({ client });
}
