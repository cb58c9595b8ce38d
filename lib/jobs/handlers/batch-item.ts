import { failBatchItem } from "../../agent/batches";
import type { Db } from "../../db";

/**
 * Does one item of a batch; on the last attempt a failure also marks the item failed, so the batch
 * still finishes. The job keeps the error either way.
 */
export async function doBatchItem<T>(
  input: { data: { batchId: string; ticketId: string }; client: Db; lastAttempt: boolean },
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (input.lastAttempt)
      await failBatchItem({ ...input.data, detail: error instanceof Error ? error.message : String(error), client: input.client });
    throw error;
  }
}
