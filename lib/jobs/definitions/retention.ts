import { defineJob } from "../define-job";
import { ROUTINE_OPTIONS, ZNoPayload } from "./routine";

/** Personal data kept past its retention period is erased, in batches (lib/privacy/apply-retention.ts). */
export const RETENTION_JOB = defineJob({
  queue: "retention",
  payload: ZNoPayload,
  options: ROUTINE_OPTIONS,
  // Daily, at night: periods are counted in days, and each run finishes what has expired since.
  schedule: { cron: "43 3 * * *" },
  work: { pollingIntervalSeconds: 60 },
});
