// Replies posted to any helpdesk's endpoint, signed the Standard Webhooks way (the signer intake and the
// outbox already use). webhook-id is the delivery's id on every attempt, so the receiver keeps one
// message per id however often an attempt is repeated; a fresh timestamp signs each attempt.
import { signWebhook } from "../../intake/webhook-signature";
import { DELIVERY_TIMEOUT_MS, type TChannel, type TOutgoingReply } from "./channel";

export interface TWebhookConfig {
  url: string;
  secret: string;
  timeoutMs?: number;
}

export function replyWebhookBody(reply: TOutgoingReply) {
  return {
    type: "reply.released",
    deliveryId: reply.deliveryId,
    ticket: {
      id: reply.ticket.id,
      number: reply.ticket.number,
      externalId: reply.ticket.externalId,
      customerEmail: reply.ticket.customerEmail,
    },
    body: reply.body,
    disclosed: reply.disclosed,
  };
}

export function webhookChannel(config: TWebhookConfig): TChannel {
  return {
    name: "webhook",
    async send(reply) {
      const payload = JSON.stringify(replyWebhookBody(reply));
      const headers = signWebhook({ secret: config.secret, id: reply.deliveryId, timestamp: new Date(), payload });
      let response: Response;
      try {
        response = await fetch(config.url, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: payload,
          redirect: "manual",
          signal: AbortSignal.timeout(config.timeoutMs ?? DELIVERY_TIMEOUT_MS),
        });
      } catch {
        throw new Error("No HTTP answer from the reply webhook.");
      }
      await response.body?.cancel();
      if (response.status < 200 || response.status > 299) throw new Error(`The reply webhook answered ${response.status}.`);
      return null;
    },
  };
}
