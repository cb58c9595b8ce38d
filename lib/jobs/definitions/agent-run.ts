import { z } from "zod";
import { defineJob } from "../define-job";

/** One agent run of a batch: a bulk run or a shadow pass (lib/agent/batches.ts). */
export const AGENT_RUN_JOB = defineJob({
  queue: "agent-run",
  payload: z.object({ batchId: z.uuid(), ticketId: z.uuid() }),
  // A run may call a model for minutes: its lock time is at least five.
  options: (lock) => ({ retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: Math.max(lock, 300) }),
  // Its time is the model's: many at once, paced by the model limiter (lib/llm/model-limiter.ts). A
  // worker process that is not the one that started the batch first hears of it when it polls: every
  // quarter second, as for a live run, rather than every half (a bulk run's start is that much later).
  work: { parallel: true, pollingIntervalSeconds: 0.25 },
});
