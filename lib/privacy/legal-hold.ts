// A legal hold: placed on a customer or on one ticket by an admin, it suspends erasure (refused
// `erasure_legal_hold`) and the retention job (which skips what it holds) until an admin lifts it.
// Placing and lifting are audited, by ids only; a request that changes nothing records nothing.
import { AppError } from "../contracts/app-error";
import { mayUse, type Role } from "../contracts/roles";
import { db, type DbTx } from "../db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { setCustomerLegalHold } from "../orders/order-store";
import { setTicketLegalHold } from "../tickets/store/ticket-store";

export type THoldSubject = { customerId: string } | { ticketId: string };

export async function setLegalHold(input: {
  subject: THoldSubject;
  hold: boolean;
  actor: { id: string; role: Role };
}): Promise<{ changed: boolean }> {
  if (!mayUse(input.actor.role, "admin")) throw new AppError("forbidden", "Only an admin may place or lift a legal hold.");
  return db().$transaction(async (tx) => {
    const changed = await applyHold(tx, input.subject, input.hold);
    if (changed) {
      const subject = input.subject;
      const on =
        "ticketId" in subject
          ? { subjectType: "ticket", subjectId: subject.ticketId, ticketId: subject.ticketId }
          : { subjectType: "customer", subjectId: subject.customerId };
      await recordAuditEvent(tx, {
        actorType: "user",
        actorId: input.actor.id,
        action: input.hold ? "legal_hold.placed" : "legal_hold.lifted",
        ...on,
        inputs: { on: on.subjectType },
      });
    }
    return { changed };
  });
}

/** The hold written, or why not: no such customer (or one erased) or ticket is `not_found`. */
async function applyHold(tx: DbTx, subject: THoldSubject, hold: boolean): Promise<boolean> {
  if ("ticketId" in subject) {
    const ticket = await tx.ticket.findUnique({ where: { id: subject.ticketId }, select: { legalHold: true } });
    if (!ticket) throw new AppError("not_found", "There is no such ticket.");
    return setTicketLegalHold(tx, subject.ticketId, hold);
  }
  const customer = await tx.customer.findUnique({ where: { id: subject.customerId }, select: { erasedAt: true } });
  if (!customer || customer.erasedAt) throw new AppError("not_found", "There is no such customer (or their data was erased).");
  return setCustomerLegalHold(tx, subject.customerId, hold);
}
