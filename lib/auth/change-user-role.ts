// An admin changes someone's role. It applies from that person's next request: every request reads the
// role from the database (load-session-user.ts), so no session keeps the old one.
import "server-only";
import { recordAuditEvent } from "../audit/record-audit-event";
import { AppError } from "../contracts/app-error";
import { isRole, mayUse, type Role } from "../contracts/roles";
import { db as defaultDb, type Db } from "../db";
import { assertAnotherAdminRemains } from "./admin-remains";
import { invalidUserInput } from "./add-user";

export async function changeUserRole(input: {
  userId: string;
  role: string;
  actor: { id: string; role: Role };
  client?: Db;
}): Promise<{ from: Role; to: Role }> {
  if (!mayUse(input.actor.role, "admin")) throw new AppError("forbidden", "Only an admin may change roles.");
  const to = input.role;
  if (!isRole(to)) throw invalidUserInput("role", "must be a role");
  const client = input.client ?? defaultDb();
  return client.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: input.userId }, select: { id: true, role: true, active: true } });
    if (!user) throw new AppError("not_found", "There is no such user.");
    if (user.role === to) return { from: user.role, to };
    if (user.role === "ADMIN") await assertAnotherAdminRemains(tx, user.id);
    await recordAuditEvent(tx, {
      actorType: "user",
      actorId: input.actor.id,
      action: "user.role_changed",
      subjectType: "user",
      subjectId: user.id,
      inputs: { from: user.role, to },
    });
    await tx.user.update({ where: { id: user.id }, data: { role: to } });
    return { from: user.role, to };
  });
}
