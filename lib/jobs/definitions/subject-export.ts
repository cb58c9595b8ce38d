import { z } from "zod";
import { defineJob } from "../define-job";

/** Gather one customer's data into their export (lib/privacy/export-subject.ts). */
export const SUBJECT_EXPORT_JOB = defineJob({
  queue: "subject-export",
  payload: z.object({ exportId: z.uuid() }),
  // Reads only; a retry finds the export filled already and does nothing.
  options: (lock) => ({ retryLimit: 3, retryDelay: 10, retryBackoff: true, expireInSeconds: Math.max(lock, 60) }),
});
