import { z } from "zod";
import { APPROVAL_NOTIFICATIONS } from "../../contracts/approval-notification";
import { defineJob } from "../define-job";

/** Post one approval notification to the configured webhook (lib/approvals/notify-approval.ts). */
export const APPROVAL_NOTIFY_JOB = defineJob({
  queue: "approval-notify",
  payload: z.object({ approvalId: z.uuid(), event: z.enum(APPROVAL_NOTIFICATIONS) }),
  // Eight attempts over 20 to 40 minutes (10 s, doubling, with jitter), inside the reminder's
  // default hour. The lock time outlasts one attempt's timeout (NOTIFY_TIMEOUT_MS).
  options: (lock) => ({ retryLimit: 7, retryDelay: 10, retryBackoff: true, expireInSeconds: Math.max(lock, 30) }),
  work: { batchSize: 4 },
});
