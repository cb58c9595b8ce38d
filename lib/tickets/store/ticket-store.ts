// The tickets store: with ticket-move-sql.ts beside it, the only code that writes Ticket (its search
// keys are written by the table's own trigger). It decides nothing – the lifecycle's rules (which
// moves a status allows), admission and assignment are decided by their callers – and it imports
// only types, so the lifecycle's words stay importable by client components.
import type { Prisma, TicketStatus } from "../../../generated/prisma/client";
import type { DbTx } from "../../db";

/**
 * A lifecycle move as one compare-and-set: the status the row had is read and the new one set under
 * the row's lock, only while the status is one of `from`. Returns the status it moved from, or null
 * when the row was not in one of them (or there is no such row).
 */
export async function moveTicketRow(
  tx: DbTx,
  m: { ticketId: string; to: TicketStatus; from: readonly TicketStatus[]; reason: string | null },
): Promise<TicketStatus | null> {
  const rows = await tx.$queryRaw<{ previous: TicketStatus }[]>`
    UPDATE "Ticket" t SET "status" = ${m.to}::"TicketStatus", "reason" = ${m.reason}, "updatedAt" = now()
    FROM (SELECT id, status AS previous FROM "Ticket" WHERE id = ${m.ticketId}::uuid FOR UPDATE) old
    WHERE t.id = old.id AND old.previous::text = ANY(${[...m.from]}::text[])
    RETURNING old.previous`;
  return rows[0]?.previous ?? null;
}

/** A new ticket's row, in the caller's transaction (after its audit event). */
export function insertTicketRow(tx: DbTx, data: Prisma.TicketUncheckedCreateInput) {
  return tx.ticket.create({ data });
}

/**
 * A new ticket's row with its audit event, as one statement's text: `auditCte` is the audit store's
 * append (appendAuditCte), the ticket's columns are $2…$16 (id, externalId, payloadHash, source,
 * subject, body, customerEmail, orderRef, route, bundleVersion, routeSignature, admission, its reason
 * – also the ticket's reason –, status, and the time as UTC ISO text).
 */
export function insertTicketWithAuditSql(auditCte: string): string {
  return `WITH audit AS MATERIALIZED (${auditCte})
INSERT INTO "Ticket" ("id", "externalId", "payloadHash", "source", "subject", "body", "customerEmail", "orderRef", "route", "bundleVersion",
  "routeSignature", "admission", "admissionReason", "status", "reason", "createdAt", "updatedAt")
SELECT $2::uuid, $3, $4, $5::"TicketSource", $6, $7, $8, $9, $10::"TicketRoute", $11, $12, $13::"Admission", $14, $15::"TicketStatus", $14, $16::timestamp(3), $16::timestamp(3)
FROM audit
RETURNING "id", "number", "externalId", "admission", "admissionReason", "status"`;
}

/** Who works a ticket now: a person, or nobody. */
export async function setAssignee(tx: DbTx, ticketId: string, assigneeId: string | null): Promise<void> {
  await tx.ticket.update({ where: { id: ticketId }, data: { assigneeId } });
}

/** Tickets a deactivated person held, given back to the queue. */
export async function unassignTickets(tx: DbTx, ticketIds: readonly string[]): Promise<void> {
  if (ticketIds.length) await tx.ticket.updateMany({ where: { id: { in: [...ticketIds] } }, data: { assigneeId: null } });
}

/** The order a customer named later (a follow-up), as the ticket's order from now on. */
export async function nameOrder(tx: DbTx, ticketId: string, orderRef: string): Promise<void> {
  await tx.ticket.update({ where: { id: ticketId }, data: { orderRef } });
}

/**
 * Erases the personal text of these tickets: subject, body and the customer's address (emptied: the
 * search words follow subject and body through their trigger, and an empty address gets no search
 * key), every message of their conversations, and each address's search key once no ticket carries
 * it any more. Status, times, order references and numbers stay; erasedAt says when.
 */
export async function eraseTicketRows(tx: DbTx, ticketIds: string[]): Promise<number> {
  const emails = await tx.$queryRaw<{ email: string }[]>`
    WITH old AS (SELECT id, lower("customerEmail") AS email FROM "Ticket" WHERE id = ANY(${ticketIds}::uuid[]) ORDER BY id FOR UPDATE),
    erased AS (
      UPDATE "Ticket" t SET "subject" = '', "body" = '', "customerEmail" = '', "payloadHash" = NULL, "erasedAt" = now(), "updatedAt" = now()
      FROM old WHERE t.id = old.id RETURNING old.email)
    SELECT DISTINCT email FROM erased`;
  await tx.$executeRaw`
    UPDATE "TicketMessage" SET "body" = '', "authorLabel" = CASE WHEN "authorType" = 'customer' THEN '' ELSE "authorLabel" END
    WHERE "ticketId" = ANY(${ticketIds}::uuid[])`;
  await tx.$executeRaw`
    DELETE FROM "TicketSearchKey" k
     WHERE k."kind" = 'email' AND k."key" = ANY(${emails.map((e) => e.email)}::text[])
       AND NOT EXISTS (SELECT 1 FROM "Ticket" t WHERE lower(t."customerEmail") = k."key")`;
  return emails.length === 0 ? 0 : ticketIds.length;
}

/** Places or lifts a legal hold on one ticket; true when the hold changed. */
export async function setTicketLegalHold(tx: DbTx, ticketId: string, hold: boolean): Promise<boolean> {
  const { count } = await tx.ticket.updateMany({ where: { id: ticketId, legalHold: !hold }, data: { legalHold: hold } });
  return count === 1;
}
