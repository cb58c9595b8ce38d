import { defineJob } from "../define-job";
import { ROUTINE_OPTIONS, ZNoPayload } from "./routine";

/** Pending approvals expiring within the reminder's lead time get their reminder (lib/approvals/remind-approvals.ts). */
export const REMIND_APPROVALS_JOB = defineJob({
  queue: "remind-approvals",
  payload: ZNoPayload,
  options: ROUTINE_OPTIONS,
  schedule: { cron: "* * * * *" },
  work: { pollingIntervalSeconds: 5 },
});
