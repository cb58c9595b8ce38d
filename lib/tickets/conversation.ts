// A ticket's conversation as the ticket page shows it: every message oldest first, and for a reply
// released to the customer where it went and its delivery's state (lib/delivery): pending with its
// attempts, delivered (when, and for the polled outbox whether the helpdesk fetched it), or failed
// with the reason.
import "server-only";
import { db as defaultDb, type Db } from "../db";
import { listMessages } from "./store/message-store";

export type TMessageDelivery = {
  /** withdrawn: its refund failed at the payment provider before it was sent. */
  state: "pending" | "delivered" | "failed" | "withdrawn";
  /** The channel of its last attempt (outbox, webhook, zendesk, email); null before the first. */
  channel: string | null;
  attempts: number;
  deliveredAt: Date | null;
  failureReason: string | null;
  /** For the polled outbox: when the helpdesk fetched it. */
  fetchedAt: Date | null;
};

export type TConversationMessage = Awaited<ReturnType<typeof listMessages>>[number] & {
  /** A sent reply's delivery; null for other messages. */
  delivery: TMessageDelivery | null;
};

export async function loadConversation(ticketId: string, client: Db = defaultDb()): Promise<TConversationMessage[]> {
  const [messages, outbox] = await Promise.all([
    listMessages(client, ticketId),
    client.outboxMessage.findMany({
      where: { ticketId },
      select: {
        approvalRequestId: true,
        deliveredAt: true,
        delivery: { select: { state: true, channel: true, attempts: true, deliveredAt: true, failureReason: true } },
      },
    }),
  ]);
  const released = new Map(outbox.map((o) => [o.approvalRequestId, o]));
  return messages.map((m) => {
    const o = m.kind === "sent_reply" ? released.get(m.approvalRequestId) : undefined;
    if (!o) return { ...m, delivery: null };
    // A reply released before deliveries existed: only the outbox knows of it.
    const d = o.delivery ?? {
      state: o.deliveredAt ? "delivered" : "pending",
      channel: "outbox",
      attempts: 0,
      deliveredAt: o.deliveredAt,
      failureReason: null,
    };
    return { ...m, delivery: { ...d, state: d.state as TMessageDelivery["state"], fetchedAt: o.deliveredAt } };
  });
}
