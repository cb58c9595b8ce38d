import { defineJob } from "../define-job";
import { ROUTINE_OPTIONS, ZNoPayload } from "./routine";

/** Pending approvals past their expiry are marked expired. */
export const SWEEP_APPROVALS_JOB = defineJob({
  queue: "sweep-approvals",
  payload: ZNoPayload,
  options: ROUTINE_OPTIONS,
  schedule: { cron: "* * * * *" },
  work: { pollingIntervalSeconds: 5 },
});
