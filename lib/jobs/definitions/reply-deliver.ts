import { z } from "zod";
import { defineJob } from "../define-job";

/** Deliver one released reply through the configured channel (lib/delivery/deliver-reply.ts). */
export const REPLY_DELIVER_JOB = defineJob({
  queue: "reply-deliver",
  payload: z.object({ deliveryId: z.uuid() }),
  // Ten attempts over about two and a half hours (15 s, doubling, with jitter): a helpdesk or mail
  // server down for a while is waited out. The lock time outlasts one attempt's timeout
  // (DELIVERY_TIMEOUT_MS), so a live attempt is never taken twice; a dead worker's job is released
  // when the lock runs out, and the next attempt finds out what the last one did before sending.
  options: (lock) => ({ retryLimit: 9, retryDelay: 15, retryBackoff: true, expireInSeconds: Math.max(lock, 60) }),
  work: { batchSize: 4 },
});
