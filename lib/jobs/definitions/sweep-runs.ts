import { defineJob } from "../define-job";
import { ROUTINE_OPTIONS, ZNoPayload } from "./routine";

/** Runs whose lease ran out become interrupted, their tickets back with a person. */
export const SWEEP_RUNS_JOB = defineJob({
  queue: "sweep-runs",
  payload: ZNoPayload,
  options: ROUTINE_OPTIONS,
  schedule: { cron: "* * * * *" },
  work: { pollingIntervalSeconds: 5 },
});
