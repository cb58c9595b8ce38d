import { defineJob } from "../define-job";
import { ROUTINE_OPTIONS, ZNoPayload } from "./routine";

/** Approved refunds with no outcome and no job get a job again, audited. */
export const RECONCILE_REFUNDS_JOB = defineJob({
  queue: "reconcile-refunds",
  payload: ZNoPayload,
  options: ROUTINE_OPTIONS,
  schedule: { cron: "* * * * *" },
  work: { pollingIntervalSeconds: 5 },
});
