// A reviewer's internal note on a ticket: part of its conversation for the team, never sent to the
// customer and never read by the agent (lib/agent/read-run-ticket.ts reads follow-ups and feedback
// only). Audited before it is written.
import type { Role } from "../../generated/prisma/enums";
import { db as defaultDb, type Db } from "../db";
import { AppError } from "../contracts/app-error";
import { mayUse } from "../contracts/roles";
import { recordAuditEvent } from "../audit/record-audit-event";
import { insertMessage } from "../tickets/store/message-store";

export const MAX_NOTE_CHARS = 4000;

export async function addInternalNote(input: {
  ticketId: string;
  body: string;
  actor: { id: string; role: Role; email: string };
  client?: Db;
}): Promise<{ messageId: string }> {
  const client = input.client ?? defaultDb();
  if (!mayUse(input.actor.role, "approve")) throw new AppError("forbidden", "Only people who work tickets add notes to them.");
  const body = input.body.trim();
  if (!body || body.length > MAX_NOTE_CHARS) throw new AppError("invalid", `Write a note of 1 to ${MAX_NOTE_CHARS} characters.`, "body");
  const ticket = await client.ticket.findUnique({ where: { id: input.ticketId }, select: { id: true } });
  if (!ticket) throw new AppError("not_found", "This ticket does not exist.");
  return client.$transaction(async (tx) => {
    await recordAuditEvent(tx, {
      actorType: "user",
      actorId: input.actor.id,
      action: "message.note_added",
      subjectType: "ticket",
      subjectId: ticket.id,
      ticketId: ticket.id,
      inputs: { length: body.length, role: input.actor.role },
    });
    const message = await insertMessage(tx, {
      ticketId: ticket.id,
      kind: "internal_note",
      authorType: "user",
      authorId: input.actor.id,
      authorLabel: input.actor.email,
      channel: "app",
      body,
    });
    return { messageId: message!.id };
  });
}
