import { defineJob } from "../define-job";
import { ZNoPayload } from "./routine";

/** Sign a checkpoint of the audit chain (lib/audit/checkpoint.ts), when something is new. */
export const AUDIT_CHECKPOINT_JOB = defineJob({
  queue: "audit-checkpoint",
  payload: ZNoPayload,
  // Not retried: the next minute's job signs whatever a failed one would have, and a failure shows
  // on Admin → Jobs at once. The lock time matches the signer's transaction timeout, so a slow
  // signature over a long window is not handed to a second worker (which would only find it busy).
  options: (lock) => ({ retryLimit: 0, expireInSeconds: Math.max(lock, 120) }),
  schedule: { cron: "* * * * *" },
  work: { pollingIntervalSeconds: 5 },
});
