import { z } from "zod";
import { defineJob } from "../define-job";

/** One run asked for by a person ("Run agent"), its steps written as they come (lib/agent/live-runs.ts). Its id is the run's. */
export const LIVE_RUN_JOB = defineJob({
  queue: "live-run",
  payload: z.object({
    runId: z.uuid(),
    ticketId: z.uuid(),
    mode: z.enum(["live", "simulate"]),
    planner: z.enum(["rule", "model", "default"]),
    startedBy: z.uuid().nullable(),
  }),
  // Never retried: a run whose worker died is interrupted by the sweep and its ticket handed to a
  // person, who may start another; a second attempt would be a run nobody asked for. The lock time
  // outlasts any run's wall budget.
  options: (lock) => ({ retryLimit: 0, expireInSeconds: Math.max(lock, 300) }),
  // Its time is the model's, as a batch's runs: taken in the same kind of pool, paced by the model limiter.
  work: { parallel: true, pollingIntervalSeconds: 0.25 },
});
