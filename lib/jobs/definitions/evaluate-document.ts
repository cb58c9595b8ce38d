import { z } from "zod";
import { defineJob } from "../define-job";

/** Grade a policy version before it is published (lib/documents/evaluate-version.ts). Its id is the evaluation's. */
export const EVALUATE_DOCUMENT_JOB = defineJob({
  queue: "evaluate-document",
  payload: z.object({ evaluationId: z.uuid() }),
  // A grading takes a minute or two in a process of its own (killed after ten): its lock outlasts
  // that, so a live worker's grading is never handed to a second one. One retry, for a crashed
  // worker; a grading that fails the same way twice is recorded as failed, and a person asks again.
  options: (lock) => ({ retryLimit: 1, retryDelay: 5, retryBackoff: false, expireInSeconds: Math.max(lock, 15 * 60) }),
  // One grading at a time per worker: each is a process of hundreds of MB.
  work: { batchSize: 1 },
});
