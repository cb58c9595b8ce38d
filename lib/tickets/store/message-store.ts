// The messages of a ticket's conversation (TicketMessage). The customer's first message, the agent's
// drafts and the released replies are written by the table's triggers (migration
// 20261129300000_ticket_messages); this store writes the rest – a customer's follow-up, a reviewer's
// feedback, an internal note – and reads the thread. It decides nothing.
import type { TicketMessageKind } from "../../../generated/prisma/enums";
import type { Db, DbTx } from "../../db";

export interface TNewMessage {
  ticketId: string;
  kind: Extract<TicketMessageKind, "customer" | "reviewer" | "internal_note">;
  authorType: "customer" | "user";
  authorId: string | null;
  authorLabel: string;
  channel: string;
  body: string;
  externalMessageId?: string | null;
  approvalRequestId?: string | null;
}

/** A message, once: false when one with the same helpdesk message id is already on the ticket. */
export async function insertMessage(tx: DbTx, m: TNewMessage): Promise<{ id: string } | null> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO "TicketMessage" ("ticketId", "kind", "authorType", "authorId", "authorLabel", "channel", "body", "externalMessageId", "approvalRequestId")
    VALUES (${m.ticketId}::uuid, ${m.kind}::"TicketMessageKind", ${m.authorType}, ${m.authorId}, ${m.authorLabel}, ${m.channel}, ${m.body},
            ${m.externalMessageId ?? null}, ${m.approvalRequestId ?? null}::uuid)
    ON CONFLICT ("ticketId", "externalMessageId") DO NOTHING
    RETURNING "id"::text`;
  return rows[0] ?? null;
}

/** The message a helpdesk id names on a ticket, or null. */
export function findExternalMessage(client: Db | DbTx, ticketId: string, externalMessageId: string) {
  return client.ticketMessage.findUnique({ where: { ticketId_externalMessageId: { ticketId, externalMessageId } } });
}

/** A ticket's conversation, oldest first (ties in the order written). */
export function listMessages(client: Db, ticketId: string) {
  return client.ticketMessage.findMany({ where: { ticketId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}
