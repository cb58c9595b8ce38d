// Deactivating a person: they can no longer sign in, their sessions end, and the tickets they held
// go back to nobody, so no ticket waits in the worklist of someone who has left. One transaction,
// audited: `user.deactivated` and a `ticket.unassigned` per ticket, in the ticket's own history.
import "server-only";
import { recordAuditEvents } from "../audit/record-audit-event";
import { AppError } from "../contracts/app-error";
import { mayUse, type Role } from "../contracts/roles";
import { db as defaultDb, type Db } from "../db";

export async function deactivateUser(input: { userId: string; actor: { id: string; role: Role }; now: Date; client?: Db }): Promise<{ unassigned: number; changed: boolean }> {
  if (!mayUse(input.actor.role, "admin")) throw new AppError("forbidden", "Only an admin may deactivate a person.");
  if (input.actor.id === input.userId) throw new AppError("invalid", "You cannot deactivate yourself: ask another admin.", "userId");
  const client = input.client ?? defaultDb();
  return client.$transaction(async (tx) => {
    const [user] = await tx.$queryRaw<{ active: boolean }[]>`SELECT "active" FROM "User" WHERE "id" = ${input.userId}::uuid FOR UPDATE`;
    if (!user) throw new AppError("not_found", "There is no such user.");
    if (!user.active) return { unassigned: 0, changed: false };
    // Locked like a claim locks them, so a claim racing this one waits, then sees the user inactive.
    const held = await tx.$queryRaw<{ id: string }[]>`
      SELECT "id"::text FROM "Ticket" WHERE "assigneeId" = ${input.userId}::uuid ORDER BY "id" FOR UPDATE`;
    await recordAuditEvents(tx, [
      { actorType: "user", actorId: input.actor.id, action: "user.deactivated", subjectType: "user", subjectId: input.userId, inputs: { unassignedTickets: held.length } },
      ...held.map((t) => ({
        actorType: "user" as const,
        actorId: input.actor.id,
        action: "ticket.unassigned" as const,
        subjectType: "ticket",
        subjectId: t.id,
        ticketId: t.id,
        inputs: { previousAssigneeId: input.userId, why: "user_deactivated" },
      })),
    ]);
    if (held.length) await tx.ticket.updateMany({ where: { id: { in: held.map((t) => t.id) } }, data: { assigneeId: null } });
    await tx.user.update({ where: { id: input.userId }, data: { active: false } });
    await tx.userSession.updateMany({ where: { userId: input.userId, revokedAt: null }, data: { revokedAt: input.now } });
    return { unassigned: held.length, changed: true };
  });
}
