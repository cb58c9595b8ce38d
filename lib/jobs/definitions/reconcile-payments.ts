import { defineJob } from "../define-job";
import { ROUTINE_OPTIONS, ZNoPayload } from "./routine";

/** Refunds at the payment provider not final after a while (requested, pending) are settled from the provider's word. */
export const RECONCILE_PAYMENTS_JOB = defineJob({
  queue: "reconcile-payments",
  payload: ZNoPayload,
  options: ROUTINE_OPTIONS,
  schedule: { cron: "* * * * *" },
  work: { pollingIntervalSeconds: 5 },
});
