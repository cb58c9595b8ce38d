import { deliverReply } from "../../delivery/deliver-reply";
import type { REPLY_DELIVER_JOB } from "../definitions/reply-deliver";
import type { TJobInput } from "./job-input";

/** One released reply delivered through the configured channel; a failed attempt throws and is retried. */
export async function deliverReplyJob({ data, client, lastAttempt }: TJobInput<typeof REPLY_DELIVER_JOB>): Promise<unknown> {
  return deliverReply({ deliveryId: data.deliveryId, client, lastAttempt });
}
