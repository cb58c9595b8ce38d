import { assignBatchItem } from "../../agent/batches";
import type { BULK_ASSIGN_JOB } from "../definitions/bulk-assign";
import { doBatchItem } from "./batch-item";
import type { TJobInput } from "./job-input";

/** One ticket of an assignment batch. */
export async function assignBatchTicket(input: TJobInput<typeof BULK_ASSIGN_JOB>): Promise<unknown> {
  return doBatchItem(input, () => assignBatchItem({ ...input.data, client: input.client }));
}
