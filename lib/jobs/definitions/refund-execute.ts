import { z } from "zod";
import { defineJob } from "../define-job";

/** Execute an approved refund, record its outcome, release the customer's reply. Its id is the approval's. */
export const REFUND_EXECUTE_JOB = defineJob({
  queue: "refund-execute",
  payload: z.object({ approvalId: z.uuid() }),
  // Money waits on it: retried a dozen times, backing off from 2 s (about two hours in all).
  options: (lock) => ({ retryLimit: 12, retryDelay: 2, retryBackoff: true, expireInSeconds: lock }),
  work: { batchSize: 4 },
});
