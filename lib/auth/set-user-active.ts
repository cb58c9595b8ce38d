// An admin deactivates or reactivates someone. Deactivation takes effect at once: the person's
// sessions end, their unused set-password links stop working, and the tickets assigned to them go
// back to nobody – one `ticket.unassigned` per ticket, in the ticket's own history – so no ticket
// waits in the worklist of someone who has left. Nothing is deleted: their decisions and audit events
// keep naming them.
import "server-only";
import { unassignTickets } from "../tickets/store/ticket-store";
import { recordAuditEvents } from "../audit/record-audit-event";
import { AppError } from "../contracts/app-error";
import { mayUse, type Role } from "../contracts/roles";
import { db as defaultDb, type Db } from "../db";
import { assertAnotherAdminRemains } from "./admin-remains";

export type TUserActiveChange =
  { changed: false } | { changed: true; sessionsEnded: number; linksVoided: number; ticketsUnassigned: number };

export async function setUserActive(input: {
  userId: string;
  active: boolean;
  actor: { id: string; role: Role };
  now: Date;
  client?: Db;
}): Promise<TUserActiveChange> {
  if (!mayUse(input.actor.role, "admin")) throw new AppError("forbidden", "Only an admin may deactivate or reactivate people.");
  const client = input.client ?? defaultDb();
  return client.$transaction(async (tx): Promise<TUserActiveChange> => {
    // The admins first (a deactivated admin must leave one behind), then the person: always in this
    // order, so two changes never wait for each other's locks the other way round.
    const [target] = await tx.$queryRaw<
      { role: Role; active: boolean }[]
    >`SELECT "role", "active" FROM "User" WHERE "id" = ${input.userId}::uuid`;
    if (!target) throw new AppError("not_found", "There is no such user.");
    if (!input.active && target.role === "ADMIN") await assertAnotherAdminRemains(tx, input.userId);
    // Locked like an assignment share-locks its assignee: an assignment racing this waits, then finds
    // the person inactive; one that went first has its ticket unassigned below.
    const [user] = await tx.$queryRaw<{ active: boolean }[]>`SELECT "active" FROM "User" WHERE "id" = ${input.userId}::uuid FOR UPDATE`;
    if (!user || user.active === input.active) return { changed: false };
    const actor = { actorType: "user", actorId: input.actor.id } as const;
    if (input.active) {
      await recordAuditEvents(tx, [{ ...actor, action: "user.reactivated", subjectType: "user", subjectId: input.userId, inputs: {} }]);
      await tx.user.update({ where: { id: input.userId }, data: { active: true } });
      return { changed: true, sessionsEnded: 0, linksVoided: 0, ticketsUnassigned: 0 };
    }
    if (input.actor.id === input.userId) throw new AppError("invalid", "You cannot deactivate yourself: ask another admin.", "userId");
    const held = await tx.$queryRaw<
      { id: string }[]
    >`SELECT "id"::text FROM "Ticket" WHERE "assigneeId" = ${input.userId}::uuid ORDER BY "id" FOR UPDATE`;
    const [sessions, links] = await Promise.all([
      tx.userSession.count({ where: { userId: input.userId, revokedAt: null } }),
      tx.passwordLink.count({ where: { userId: input.userId, usedAt: null } }),
    ]);
    await recordAuditEvents(tx, [
      {
        ...actor,
        action: "user.deactivated",
        subjectType: "user",
        subjectId: input.userId,
        inputs: { sessionsEnded: sessions, linksVoided: links, ticketsUnassigned: held.length },
      },
      ...held.map((t) => ({
        ...actor,
        action: "ticket.unassigned" as const,
        subjectType: "ticket",
        subjectId: t.id,
        ticketId: t.id,
        inputs: { previousAssigneeId: input.userId, why: "user_deactivated" },
      })),
    ]);
    await unassignTickets(
      tx,
      held.map((t) => t.id),
    );
    await tx.user.update({ where: { id: input.userId }, data: { active: false } });
    await tx.userSession.updateMany({ where: { userId: input.userId, revokedAt: null }, data: { revokedAt: input.now } });
    await tx.passwordLink.updateMany({ where: { userId: input.userId, usedAt: null }, data: { usedAt: input.now } });
    return { changed: true, sessionsEnded: sessions, linksVoided: links, ticketsUnassigned: held.length };
  });
}
