// "Sign out everywhere": every live session of a user revoked at once, by the user themself or by an
// admin. The revocation is rows in the database, so every instance refuses those cookies from the
// next request on; the user signs in again for a fresh session.
import "server-only";
import { recordAuditEvent } from "../audit/record-audit-event";
import { AppError } from "../contracts/app-error";
import { mayUse, type Role } from "../contracts/roles";
import { db as defaultDb, type Db } from "../db";

/**
 * Revokes every live session of `userId`, audited (`user.sessions_revoked`, with how many and by
 * whom) in the same transaction, even when there was none to revoke: the request itself is the
 * event. Only the user themself or an admin may: anyone else is refused `forbidden`, before the
 * target is even looked up; an unknown user is `not_found`.
 */
export async function revokeUserSessions(input: {
  userId: string;
  actor: { id: string; role: Role };
  now: Date;
  client?: Db;
}): Promise<{ revoked: number }> {
  const client = input.client ?? defaultDb();
  const self = input.actor.id === input.userId;
  if (!self && !mayUse(input.actor.role, "admin")) throw new AppError("forbidden", "Only an admin may sign another person out.");
  return client.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: input.userId }, select: { id: true } });
    if (!user) throw new AppError("not_found", "There is no such user.");
    // Locked, so a concurrent revocation waits and then finds nothing left to revoke.
    const live = await tx.$queryRaw<{ id: string }[]>`
      SELECT "id"::text FROM "UserSession" WHERE "userId" = ${input.userId}::uuid AND "revokedAt" IS NULL FOR UPDATE`;
    await recordAuditEvent(tx, {
      actorType: "user",
      actorId: input.actor.id,
      action: "user.sessions_revoked",
      subjectType: "user",
      subjectId: input.userId,
      inputs: { sessions: live.length, by: self ? "self" : "admin" },
    });
    // Exactly the rows counted and locked above; a session opened after this request is not its concern.
    if (live.length) await tx.userSession.updateMany({ where: { id: { in: live.map((s) => s.id) } }, data: { revokedAt: input.now } });
    return { revoked: live.length };
  });
}
