// Every user, for the Users page's list, with how many sessions each holds. Admins add people there
// (invite-user.ts) or with `npm run user:add` (add-user.ts); nothing here changes them.
import "server-only";
import { db } from "../db";
import { ROLES } from "../contracts/roles";
import { sessionIdleCutoff } from "./session-lifetime";

export async function listUsers(now = new Date()) {
  const rows = await db().user.findMany({
    select: {
      id: true,
      email: true,
      name: true,
      role: true,
      active: true,
      createdAt: true,
      // Sessions that still count: not revoked, and seen within the lifetime.
      _count: { select: { sessions: { where: { revokedAt: null, lastSeenAt: { gt: sessionIdleCutoff(now) } } } } },
    },
    orderBy: { email: "asc" },
  });
  const users = rows.map(({ _count, ...user }) => ({ ...user, liveSessions: _count.sessions }));
  // Active before inactive, the most privileged first, then by email: the order in which an admin
  // scans for who holds which power.
  return users.sort((a, b) => Number(b.active) - Number(a.active) || ROLES.indexOf(b.role) - ROLES.indexOf(a.role));
}
