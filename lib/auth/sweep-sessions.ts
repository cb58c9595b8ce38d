// Housekeeping for sessions: rows idle past the session's lifetime (revoked or not) are refused
// anyway, so they are deleted. A swept session's cookie stays refused: a missing row counts as
// revoked (load-session-user.ts), and session ids are never reused.
import { db as defaultDb, type Db } from "../db";
import { sessionIdleCutoff } from "./session-lifetime";

/** Deletes sessions last seen before the lifetime's cutoff; the count deleted. */
export async function deleteExpiredSessions(input: { client?: Db; now?: Date } = {}): Promise<{ deleted: number }> {
  const client = input.client ?? defaultDb();
  const { count } = await client.userSession.deleteMany({ where: { lastSeenAt: { lte: sessionIdleCutoff(input.now ?? new Date()) } } });
  return { deleted: count };
}
