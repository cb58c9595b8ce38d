// Every user, for the admin page's read-only list. Users are created with `npm run user:add`
// (add-user.ts); nothing here changes them.
import "server-only";
import { db } from "../db";
import { ROLES } from "../contracts/roles";

export async function listUsers() {
  const users = await db().user.findMany({
    select: { id: true, email: true, name: true, role: true, active: true, createdAt: true },
    orderBy: { email: "asc" },
  });
  // Active before inactive, the most privileged first, then by email: the order in which an admin
  // scans for who holds which power.
  return users.sort((a, b) => Number(b.active) - Number(a.active) || ROLES.indexOf(b.role) - ROLES.indexOf(a.role));
}
