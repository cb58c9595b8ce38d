// Signing out, on the server: the session's row is revoked, so its cookie counts for nothing from the
// next request on, wherever it is replayed and on every instance. Clearing the cookie (next-auth's
// signOut) only tidies the browser that signed out.
import "server-only";
import { recordAuditEvent } from "../audit/record-audit-event";
import { db as defaultDb, type Db } from "../db";

/**
 * Revokes one session of one user, audited (`auth.signed_out`) in the same transaction. A session
 * already revoked, swept, or not that user's ends nothing and records nothing: signing out twice,
 * or with a stale cookie, is not an event.
 */
export async function endSession(input: { sessionId: string; userId: string; now: Date; client?: Db }): Promise<{ ended: boolean }> {
  const client = input.client ?? defaultDb();
  return client.$transaction(async (tx) => {
    // The row lock orders concurrent sign-outs of one session: the second finds it revoked.
    const live = await tx.$queryRaw<{ id: string }[]>`
      SELECT "id"::text FROM "UserSession" WHERE "id" = ${input.sessionId}::uuid AND "userId" = ${input.userId}::uuid AND "revokedAt" IS NULL FOR UPDATE`;
    if (live.length === 0) return { ended: false };
    await recordAuditEvent(tx, {
      actorType: "user",
      actorId: input.userId,
      action: "auth.signed_out",
      subjectType: "user",
      subjectId: input.userId,
      inputs: { session: input.sessionId },
    });
    await tx.userSession.update({ where: { id: input.sessionId }, data: { revokedAt: input.now } });
    return { ended: true };
  });
}
