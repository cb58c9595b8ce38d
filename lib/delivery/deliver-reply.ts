// One released reply delivered through the installation's channel (REPLY_CHANNEL): the delivery job's
// work (lib/jobs/definitions/reply-deliver.ts). At least once: a failed attempt records its error and
// throws, and the queue retries with backoff under the same delivery id; after the last attempt, or a
// refusal no retry can mend, the delivery is `failed` with its reason. `delivered` is final: a late
// retry of a delivered reply sends nothing. Each final state is audited with the delivery's id, the
// channel and the attempt – never the message, the address or the other side's error text – in the
// transaction that writes it.
import { db as defaultDb, type Db, type DbTx } from "../db";
import { recordAuditEvent } from "../audit/record-audit-event";
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
    thread: emailThread(row.ticket.helpdeskThread, row.ticket.messages),
  };
  const final = { id: row.id, ticketId: row.ticketId, channel: channel.name, attempts: row.attempts + 1 };
  try {
    const ref = await channel.send(reply);
    await settle(client, final, null, (tx) => markDelivered(tx, row.id, ref));
    return "delivered";
  } catch (error) {
    if (error instanceof DeliveryRefused) {
      await settle(client, final, error.reason, (tx) => recordFailure(tx, row.id, { error: error.message, reason: error.reason }));
      return `failed:${error.reason}`;
    }
    const message = error instanceof Error ? error.message : String(error);
    const failure = { error: message, reason: input.lastAttempt ? "retries_exhausted" : null };
    if (failure.reason) await settle(client, final, failure.reason, (tx) => recordFailure(tx, row.id, failure));
    else await recordFailure(client, row.id, failure);
    throw error;
  }
}

/** An email thread answers the customer's newest message, naming the whole thread in References. */
function emailThread(thread: TOutgoingReply["thread"], later: { externalMessageId: string | null }[]): TOutgoingReply["thread"] {
  if (thread?.channel !== "email") return thread;
  const ids = [thread.messageId, ...later.map((m) => m.externalMessageId)].filter((id): id is string => !!id);
  return { ...thread, messageId: ids.at(-1) ?? null, references: [...new Set(ids)] };
}

class NotPending extends Error {}

/** A final state (delivered, or failed with `reason`) and its audit event, in one transaction; nothing when the delivery is no longer pending. */
async function settle(
  client: Db,
  d: { id: string; ticketId: string; channel: string; attempts: number },
  reason: string | null,
  write: (tx: DbTx) => Promise<boolean>,
): Promise<void> {
  try {
    await client.$transaction(async (tx) => {
      await recordAuditEvent(tx, {
        actorType: "system",
        actorId: "reply-deliver",
        action: reason ? "reply.delivery_failed" : "reply.delivered",
        subjectType: "delivery",
        subjectId: d.id,
        ticketId: d.ticketId,
        inputs: { deliveryId: d.id, channel: d.channel, attempts: d.attempts, ...(reason ? { reason } : {}) },
      });
      if (!(await write(tx))) throw new NotPending();
    });
  } catch (error) {
    if (!(error instanceof NotPending)) throw error;
  }
}
