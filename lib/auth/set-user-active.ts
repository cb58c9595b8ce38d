// An admin deactivates or reactivates someone. Deactivation takes effect at once: the person's
// sessions end, their unused set-password links stop working, and the tickets assigned to them go
// back to unassigned so none waits on someone who is gone. Nothing is deleted: their decisions and
// audit events keep naming them.
import "server-only";
import { recordAuditEvent } from "../audit/record-audit-event";
import { AppError } from "../contracts/app-error";
import { mayUse, type Role } from "../contracts/roles";
import { db as defaultDb, type Db } from "../db";
import { assertAnotherAdminRemains } from "./admin-remains";

export type TUserActiveChange = { changed: false } | { changed: true; sessionsEnded: number; linksVoided: number; ticketsUnassigned: number };

export async function setUserActive(input: { userId: string; active: boolean; actor: { id: string; role: Role }; now: Date; client?: Db }): Promise<TUserActiveChange> {
  if (!mayUse(input.actor.role, "admin")) throw new AppError("forbidden", "Only an admin may deactivate or reactivate people.");
  const client = input.client ?? defaultDb();
  return client.$transaction(async (tx): Promise<TUserActiveChange> => {
    const user = await tx.user.findUnique({ where: { id: input.userId }, select: { id: true, role: true, active: true } });
    if (!user) throw new AppError("not_found", "There is no such user.");
    if (user.active === input.active) return { changed: false };
    const actor = { actorType: "user", actorId: input.actor.id, subjectType: "user", subjectId: user.id } as const;
    if (input.active) {
      await recordAuditEvent(tx, { ...actor, action: "user.reactivated", inputs: {} });
      await tx.user.update({ where: { id: user.id }, data: { active: true } });
      return { changed: true, sessionsEnded: 0, linksVoided: 0, ticketsUnassigned: 0 };
    }
    if (user.role === "ADMIN") await assertAnotherAdminRemains(tx, user.id);
    const [sessions, links, tickets] = await Promise.all([
      tx.userSession.count({ where: { userId: user.id, revokedAt: null } }),
      tx.passwordLink.count({ where: { userId: user.id, usedAt: null } }),
      tx.ticket.count({ where: { assigneeId: user.id } }),
    ]);
    await recordAuditEvent(tx, { ...actor, action: "user.deactivated", inputs: { sessionsEnded: sessions, linksVoided: links, ticketsUnassigned: tickets } });
    await tx.user.update({ where: { id: user.id }, data: { active: false } });
    await tx.userSession.updateMany({ where: { userId: user.id, revokedAt: null }, data: { revokedAt: input.now } });
    await tx.passwordLink.updateMany({ where: { userId: user.id, usedAt: null }, data: { usedAt: input.now } });
    await tx.ticket.updateMany({ where: { assigneeId: user.id }, data: { assigneeId: null } });
    return { changed: true, sessionsEnded: sessions, linksVoided: links, ticketsUnassigned: tickets };
  });
}
