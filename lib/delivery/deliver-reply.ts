// One released reply delivered through the installation's channel (REPLY_CHANNEL): the delivery job's
// work (lib/jobs/definitions/reply-deliver.ts). At least once: a failed attempt records its error and
// throws, and the queue retries with backoff under the same delivery id; after the last attempt, or a
// refusal no retry can mend, the delivery is `failed` with its reason. `delivered` is final: a late
// retry of a delivered reply sends nothing.
import { db as defaultDb, type Db } from "../db";
import { env, type TEnv } from "../env";
import { loadDelivery, markDelivered, recordFailure, startAttempt } from "./store/delivery-store";
import { DeliveryRefused, type TChannel, type TOutgoingReply } from "./channels/channel";
import { emailChannel } from "./channels/email";
import { webhookChannel } from "./channels/webhook";
import { zendeskChannel } from "./channels/zendesk";

/** The polled outbox: the reply is there for GET /api/outbox once released; nothing to send. */
const OUTBOX_CHANNEL: TChannel = { name: "outbox", send: async () => "outbox" };

/** The channel the settings name (lib/env.ts checks each has what it needs). */
export function configuredChannel(e: TEnv = env()): TChannel {
  switch (e.REPLY_CHANNEL) {
    case "webhook":
      return webhookChannel({ url: e.REPLY_WEBHOOK_URL!, secret: e.REPLY_WEBHOOK_SECRET! });
    case "zendesk":
      return zendeskChannel({ url: e.ZENDESK_URL!, email: e.ZENDESK_EMAIL!, token: e.ZENDESK_API_TOKEN! });
    case "email":
      return emailChannel({ smtpUrl: e.SMTP_URL!, from: e.REPLY_FROM! });
    case "outbox":
      return OUTBOX_CHANNEL;
  }
}

export type TDeliverResult =
  "delivered" | `failed:${string}` | "skipped:no_delivery" | "skipped:delivered" | "skipped:failed" | "skipped:withdrawn";

export async function deliverReply(input: {
  deliveryId: string;
  client?: Db;
  /** No retry follows a failure of this attempt. */
  lastAttempt?: boolean;
  channel?: TChannel;
}): Promise<TDeliverResult> {
  const client = input.client ?? defaultDb();
  const row = await loadDelivery(client, input.deliveryId);
  if (!row) return "skipped:no_delivery";
  if (row.state !== "pending") return `skipped:${row.state as "delivered" | "failed" | "withdrawn"}`;
  const channel = input.channel ?? configuredChannel();
  if (!(await startAttempt(client, row.id, channel.name))) return "skipped:delivered";
  const reply: TOutgoingReply = {
    deliveryId: row.id,
    body: row.outboxMessage.body,
    disclosed: row.disclosed,
    ticket: row.ticket,
    thread: row.ticket.helpdeskThread,
  };
  try {
    await markDelivered(client, row.id, await channel.send(reply));
    return "delivered";
  } catch (error) {
    if (error instanceof DeliveryRefused) {
      await recordFailure(client, row.id, { error: error.message, reason: error.reason });
      return `failed:${error.reason}`;
    }
    const message = error instanceof Error ? error.message : String(error);
    await recordFailure(client, row.id, { error: message, reason: input.lastAttempt ? "retries_exhausted" : null });
    throw error;
  }
}
