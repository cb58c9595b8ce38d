import { settleApprovedRefund } from "../../approvals/settle-refund";
import { activeSpan } from "../../observability/tracing";
import type { REFUND_EXECUTE_JOB } from "../definitions/refund-execute";
import { countRefundExecution } from "../metrics";
import type { TJobInput } from "./job-input";

/** Executes the approved refund, records its outcome, releases or withholds the reply; once, however often it runs. */
export async function settleRefundJob({ data, client }: TJobInput<typeof REFUND_EXECUTE_JOB>): Promise<string> {
  const settlement = await settleApprovedRefund({ approvalId: data.approvalId, client });
  activeSpan()?.setAttributes({
    "countersign.refund.outcome": settlement.outcome,
    "countersign.refund.settled_now": settlement.settledNow,
  });
  if (settlement.settledNow) countRefundExecution(settlement.outcome);
  return settlement.outcome;
}
