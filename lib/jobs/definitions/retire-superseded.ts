import { defineJob } from "../define-job";
import { ROUTINE_OPTIONS, ZNoPayload } from "./routine";

/** Published versions superseded by a scheduled one that has taken effect are retired (lib/documents/retire-superseded-versions.ts). */
export const RETIRE_SUPERSEDED_JOB = defineJob({
  queue: "retire-superseded",
  payload: ZNoPayload,
  options: ROUTINE_OPTIONS,
  // Every minute, as scheduling is to the minute: the evidence never waits on it (the in-effect rule
  // leaves a superseded version out at once), but a list showing it "published" for long would mislead.
  schedule: { cron: "* * * * *" },
  work: { pollingIntervalSeconds: 5 },
});
