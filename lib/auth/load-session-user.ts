// The server's half of a session: whether the user a cookie names still counts, read in one statement
// (the session's row joined to its user's). The cookie proves who signed in and when; the rows say
// whether that still holds: the session not revoked (sign-out, "sign out everywhere", an admin) and
// seen within its lifetime, the user active, their session version unchanged. The role comes from the
// row, so a role change applies on the next request. Everything is in the database, so every instance
// answers alike the moment a revocation commits.
import "server-only";
import { db as defaultDb, driverOf, type Db } from "../db";
import { preparedSql, timestampFromText } from "../db/driver";
import { isRole, type Role } from "../contracts/roles";
import { SESSION_TOUCH_SECONDS, sessionIdleCutoff } from "./session-lifetime";

export interface TSessionUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  /** The session this request is signed in with (its UserSession row). */
  sessionId: string;
}

/** What a session cookie claims, once decrypted: its user, the user's session version, its row. */
export interface TSessionClaims {
  id: string;
  sessionVersion: number;
  sessionId: string;
}

const LOAD = preparedSql(`
  SELECT u."id"::text, u."email", u."name", u."role"::text, u."active"::text, u."sessionVersion"::text,
         s."userId"::text AS "sessionUserId", s."revokedAt"::text, s."lastSeenAt"::text
  FROM "UserSession" s JOIN "User" u ON u."id" = s."userId"
  WHERE s."id" = $1::uuid`);

interface TRow {
  id: string;
  email: string;
  name: string;
  role: string;
  active: string;
  sessionVersion: string;
  sessionUserId: string;
  revokedAt: string | null;
  lastSeenAt: string;
}

const TRUE = new Set(["t", "true"]);

/**
 * The signed-in user the claims name, or null when the session no longer counts: its row revoked,
 * missing (never minted, or swept) or idle past the lifetime, or the user inactive, re-versioned or
 * not the session's. One statement; a session last seen more than SESSION_TOUCH_SECONDS ago also has
 * its lastSeenAt moved, at most once per interval whatever the concurrency.
 */
export async function loadSessionUser(input: { claims: TSessionClaims; now: Date; client?: Db }): Promise<TSessionUser | null> {
  const client = input.client ?? defaultDb();
  const [row] = await driverOf(client).rows<TRow>(LOAD, [input.claims.sessionId]);
  if (!row || row.sessionUserId !== input.claims.id || row.revokedAt !== null) return null;
  if (!TRUE.has(row.active) || Number(row.sessionVersion) !== input.claims.sessionVersion || !isRole(row.role)) return null;
  const lastSeen = timestampFromText(row.lastSeenAt);
  if (lastSeen <= sessionIdleCutoff(input.now)) return null;
  if (input.now.getTime() - lastSeen.getTime() > SESSION_TOUCH_SECONDS * 1000) {
    // Guarded by the old value and by revokedAt, so concurrent requests write once and a revocation
    // committed meanwhile is never undone.
    await client.userSession.updateMany({
      where: {
        id: input.claims.sessionId,
        revokedAt: null,
        lastSeenAt: { lt: new Date(input.now.getTime() - SESSION_TOUCH_SECONDS * 1000) },
      },
      data: { lastSeenAt: input.now },
    });
  }
  return { id: row.id, email: row.email, name: row.name, role: row.role, sessionId: input.claims.sessionId };
}
