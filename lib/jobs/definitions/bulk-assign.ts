import { z } from "zod";
import { defineJob } from "../define-job";

/** One assignment of a bulk batch (lib/agent/batches.ts). */
export const BULK_ASSIGN_JOB = defineJob({
  queue: "bulk-assign",
  payload: z.object({ batchId: z.uuid(), ticketId: z.uuid() }),
  options: (lock) => ({ retryLimit: 2, retryDelay: 10, retryBackoff: true, expireInSeconds: lock }),
  work: { batchSize: 8 },
});
