import { defineJob } from "../define-job";
import { ROUTINE_OPTIONS, ZNoPayload } from "./routine";

/** Sessions idle past their lifetime are deleted (lib/auth/sweep-sessions.ts). */
export const SWEEP_SESSIONS_JOB = defineJob({
  queue: "sweep-sessions",
  payload: ZNoPayload,
  options: ROUTINE_OPTIONS,
  // Hourly: a swept row changes no answer (an idle session is refused either way), it only frees space.
  schedule: { cron: "17 * * * *" },
  work: { pollingIntervalSeconds: 30 },
});
