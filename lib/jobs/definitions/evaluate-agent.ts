import { z } from "zod";
import { defineJob } from "../define-job";

/** Grade the agent on an episode dataset, as a lead asked from /evals (lib/eval/agent-evaluation.ts). Its id is the request's. */
export const EVALUATE_AGENT_JOB = defineJob({
  queue: "evaluate-agent",
  payload: z.object({ requestId: z.uuid() }),
  // A grading runs in a process of its own, killed after its timeout: the lock outlasts that, so a
  // live worker's grading is never handed to a second one. One retry, for a crashed worker.
  options: (lock) => ({ retryLimit: 1, retryDelay: 5, retryBackoff: false, expireInSeconds: Math.max(lock, 35 * 60) }),
  // One grading at a time per worker: each is a process of hundreds of MB.
  work: { batchSize: 1 },
});
