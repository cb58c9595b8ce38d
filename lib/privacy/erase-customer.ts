// Erasure of a customer (GDPR Art. 17): their personal values are overwritten in every table that
// holds them, and their salt is destroyed, so the commitments the audit chain holds for them can no
// longer be linked to anyone. Nothing hashed, signed or counted changes: the audit events, the
// checkpoints, the ledger's rows and amounts, the approvals' digests and the decisions' signatures
// stay, and still verify. Refused while a refund of theirs is in flight, or a legal hold applies.
// What is kept and why: docs/privacy.md.
import { AppError } from "../contracts/app-error";
import { mayUse, type Role } from "../contracts/roles";
import { db, type DbTx } from "../db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { eraseCustomerRow } from "../orders/order-store";
import { eraseTicketRows } from "../tickets/store/ticket-store";
import { eraseRunRows } from "../agent/store/run-erasure";
import { eraseApprovalRows } from "../approvals/store/approval-erasure";
import { eraseDeliveryRows } from "../delivery/store/delivery-store";
import { eraseAnnotationRows } from "../eval/erase-annotations";
import { discardExportRows } from "./store/export-store";

/** Who asks: an admin in the app, or the helpdesk through its signed route. */
export type TErasureActor = { type: "user"; id: string; role: Role } | { type: "api"; id: string };

export interface TErasure {
  customerId: string;
  /** false: erased before (an erasure is answered again, and changes nothing). */
  erasedNow: boolean;
  tickets: number;
  runs: number;
  approvals: number;
}

/** The placeholder an erased customer's address becomes: unique, and nobody's. */
export const erasedEmail = (customerId: string) => `erased+${customerId.toLowerCase()}@invalid`;

export async function eraseCustomer(input: { customerId: string; actor: TErasureActor }): Promise<TErasure> {
  const { actor } = input;
  if (actor.type === "user" && !mayUse(actor.role, "admin")) throw new AppError("forbidden", "Only an admin may erase a customer.");
  return db().$transaction(async (tx) => {
    const customer = await lockCustomer(tx, input.customerId);
    const none = { customerId: input.customerId, tickets: 0, runs: 0, approvals: 0 };
    if (customer.erasedAt) return { ...none, erasedNow: false };
    const ticketIds = await customerTicketIds(tx, customer.id, customer.email);
    await assertErasable(tx, customer, ticketIds);

    const placeholderEmail = erasedEmail(customer.id);
    // The event first, in the same transaction as the effect: who, when and which subject, with
    // counts – never a value that erasure removes.
    await recordAuditEvent(tx, {
      actorType: actor.type,
      actorId: actor.id,
      action: "customer.erased",
      subjectType: "customer",
      subjectId: customer.id,
      inputs: { tickets: ticketIds.length },
    });
    await eraseCustomerRow(tx, customer.id, placeholderEmail);
    await discardExportRows(tx, customer.id);
    const { runs, approvals } = await eraseTickets(tx, ticketIds);
    return { customerId: customer.id, erasedNow: true, tickets: ticketIds.length, runs, approvals };
  });
}

/**
 * Erases what every table keeps of these tickets' personal text (the tickets, their conversations,
 * runs and traces, approvals, decisions' notes, outbox, deliveries, annotations): the customer's
 * erasure and the retention job share it.
 */
export async function eraseTickets(tx: DbTx, ticketIds: string[]): Promise<{ runs: number; approvals: number }> {
  if (ticketIds.length === 0) return { runs: 0, approvals: 0 };
  await eraseTicketRows(tx, ticketIds);
  const runs = await eraseRunRows(tx, ticketIds);
  const approvals = await eraseApprovalRows(tx, ticketIds);
  await eraseDeliveryRows(tx, ticketIds);
  await eraseAnnotationRows(tx, ticketIds);
  return { runs, approvals };
}

type TLocked = { id: string; email: string; legalHold: boolean; erasedAt: Date | null };

async function lockCustomer(tx: DbTx, customerId: string): Promise<TLocked> {
  const [row] = await tx.$queryRaw<TLocked[]>`
    SELECT id, email, "legalHold", "erasedAt" FROM "Customer" WHERE id = ${customerId} FOR UPDATE`;
  if (!row) throw new AppError("not_found", "There is no such customer.");
  return row;
}

/** The customer's tickets, locked: written from their address, or about one of their orders. */
export async function customerTicketIds(tx: DbTx, customerId: string, email: string): Promise<string[]> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM "Ticket"
     WHERE lower("customerEmail") = lower(${email})
        OR upper("orderRef") IN (SELECT upper(id) FROM "Order" WHERE "customerId" = ${customerId})
     ORDER BY id FOR UPDATE`;
  return rows.map((r) => r.id);
}

async function assertErasable(tx: DbTx, customer: TLocked, ticketIds: string[]): Promise<void> {
  const [held] = await tx.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM "Ticket" WHERE id = ANY(${ticketIds}::uuid[]) AND "legalHold"`;
  if (customer.legalHold || held!.n > 0) {
    throw new AppError(
      "erasure_legal_hold",
      customer.legalHold ? "A legal hold applies to this customer." : "A legal hold applies to one of the customer's tickets.",
    );
  }
  const [inFlight] = await tx.$queryRaw<{ n: number }[]>`
    SELECT (SELECT count(*) FROM "ApprovalRequest"
             WHERE "ticketId" = ANY(${ticketIds}::uuid[]) AND kind = 'refund'
               AND (status = 'pending' OR (status = 'approved' AND "executionOutcome" IS NULL)))
         + (SELECT count(*) FROM "LedgerEntry" l JOIN "Order" o ON o.id = l."orderId"
             WHERE o."customerId" = ${customer.id} AND l.state IN ('requested', 'pending', 'requires_action')) AS n`;
  if (Number(inFlight!.n) > 0) {
    throw new AppError("erasure_refund_in_flight", "A refund of this customer's is still in flight: erase them once it has ended.");
  }
}
