// Who works a ticket: a person claims it, or it is assigned to someone, or unassigned. Audited in
// the transaction of the change, under the ticket's row lock, so two claims at once have one winner.
// Only people who work tickets (the approve area, active) may hold one.
import type { Role } from "../../generated/prisma/enums";
import { recordAuditEvent } from "../audit/record-audit-event";
import { AppError } from "../contracts/app-error";
import { mayUse } from "../contracts/roles";
import { db as defaultDb, type Db } from "../db";
import { setAssignee } from "../tickets/store/ticket-store";

export type TAssignmentChange = { kind: "claim" } | { kind: "assign"; assigneeId: string } | { kind: "unassign" };

export interface TAssignmentResult {
  assigneeId: string | null;
  /** False when the ticket already stood that way: nothing written, nothing audited. */
  changed: boolean;
}

/** Whether a user of `role` may hold tickets (be claimed for, assigned, listed as an assignee). */
export const mayHoldTickets = (role: Role) => mayUse(role, "approve");

export async function assignTicket(input: {
  ticketId: string;
  change: TAssignmentChange;
  actor: { id: string; role: Role };
  client?: Db;
}): Promise<TAssignmentResult> {
  const { change, actor } = input;
  if (!mayUse(actor.role, "assign")) throw new AppError("forbidden", "Your role may not assign tickets.");
  if (change.kind === "claim" && !mayHoldTickets(actor.role))
    throw new AppError("forbidden", "Your role does not work tickets, so it cannot claim one; assign it to someone instead.");
  const client = input.client ?? defaultDb();

  return client.$transaction(async (tx) => {
    const [ticket] = await tx.$queryRaw<{ assigneeId: string | null; status: string }[]>`
      SELECT "assigneeId"::text AS "assigneeId", "status"::text AS "status" FROM "Ticket" WHERE "id" = ${input.ticketId}::uuid FOR UPDATE`;
    if (!ticket) throw new AppError("not_found", "This ticket does not exist.");
    const previous = ticket.assigneeId;

    if (change.kind === "unassign") {
      if (previous === null) return { assigneeId: null, changed: false };
      await recordAuditEvent(tx, {
        actorType: "user",
        actorId: actor.id,
        action: "ticket.unassigned",
        subjectType: "ticket",
        subjectId: input.ticketId,
        ticketId: input.ticketId,
        inputs: { previousAssigneeId: previous, why: "by_hand" },
      });
      await setAssignee(tx, input.ticketId, null);
      return { assigneeId: null, changed: true };
    }

    if (ticket.status === "resolved") throw new AppError("ticket_resolved", "This ticket is resolved: there is nothing left to work on.");
    const target = change.kind === "claim" ? actor.id : change.assigneeId;
    // A claim takes a free ticket, so two people claiming at once get one winner; taking over a
    // ticket someone holds is an assignment, open to everyone who may assign (the ticket page's
    // Assignee panel offers exactly these two).
    if (change.kind === "claim" && previous !== null && previous !== actor.id) {
      throw new AppError("ticket_claimed", "Someone else holds this ticket, so it cannot be claimed. To take it over, assign it.");
    }
    // Shared-locked: a deactivation of this person waits for this change and then unassigns the
    // ticket too, or it went first and this sees them inactive (set-user-active.ts).
    const [person] = await tx.$queryRaw<{ active: boolean; role: Role }[]>`
      SELECT "active", "role"::text AS "role" FROM "User" WHERE "id" = ${target}::uuid FOR SHARE`;
    if (!person || !person.active || !mayHoldTickets(person.role)) {
      throw new AppError("invalid", "Assign the ticket to an active reviewer, specialist or admin.", "assigneeId");
    }
    if (previous === target) return { assigneeId: target, changed: false };
    await recordAuditEvent(tx, {
      actorType: "user",
      actorId: actor.id,
      action: "ticket.assigned",
      subjectType: "ticket",
      subjectId: input.ticketId,
      ticketId: input.ticketId,
      inputs: { assigneeId: target, previousAssigneeId: previous, how: change.kind },
    });
    await setAssignee(tx, input.ticketId, target);
    return { assigneeId: target, changed: true };
  });
}
