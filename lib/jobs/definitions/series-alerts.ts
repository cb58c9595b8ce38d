import { defineJob } from "../define-job";
import { ROUTINE_OPTIONS, ZNoPayload } from "./routine";

/** The daily series against their thresholds, every five minutes (lib/eval/series-alerts.ts). */
export const SERIES_ALERTS_JOB = defineJob({
  queue: "series-alerts",
  payload: ZNoPayload,
  options: ROUTINE_OPTIONS,
  schedule: { cron: "*/5 * * * *" },
});
