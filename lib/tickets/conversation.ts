// A ticket's conversation as the ticket page shows it: every message oldest first, and for a reply
// released to the helpdesk where it went and whether it was fetched (its outbox message).
import "server-only";
import { db as defaultDb, type Db } from "../db";
import { listMessages } from "./store/message-store";

export type TConversationMessage = Awaited<ReturnType<typeof listMessages>>[number] & {
  /** A sent reply's delivery: waiting in the outbox, or fetched by the helpdesk (when). Null for other messages. */
  delivery: { state: "waiting" | "delivered" | "withdrawn"; at: Date | null } | null;
};

export async function loadConversation(ticketId: string, client: Db = defaultDb()): Promise<TConversationMessage[]> {
  const [messages, outbox] = await Promise.all([
    listMessages(client, ticketId),
    client.outboxMessage.findMany({
      where: { ticketId },
      select: { approvalRequestId: true, deliveredAt: true, delivery: { select: { state: true } } },
    }),
  ]);
  const byApproval = new Map(outbox.map((o) => [o.approvalRequestId, o]));
  return messages.map((m) => {
    if (m.kind !== "sent_reply") return { ...m, delivery: null };
    const o = byApproval.get(m.approvalRequestId);
    // Withdrawn: its refund failed at the payment provider before it was sent.
    if (o?.delivery?.state === "withdrawn") return { ...m, delivery: { state: "withdrawn" as const, at: null } };
    const at = o?.deliveredAt ?? null;
    return { ...m, delivery: at ? { state: "delivered" as const, at } : { state: "waiting" as const, at: null } };
  });
}
