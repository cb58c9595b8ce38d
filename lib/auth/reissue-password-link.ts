// A new set-password link for someone who exists: they never used theirs, or forgot their password.
// Their current password keeps working until the link is used; earlier links stop working at once.
import "server-only";
import { recordAuditEvent } from "../audit/record-audit-event";
import { AppError } from "../contracts/app-error";
import { mayUse, type Role } from "../contracts/roles";
import { db as defaultDb, type Db } from "../db";
import { issuePasswordLink } from "./password-link";

export async function reissuePasswordLink(input: {
  userId: string;
  actor: { id: string; role: Role };
  now: Date;
  client?: Db;
}): Promise<{ email: string; token: string; expiresAt: Date }> {
  if (!mayUse(input.actor.role, "admin")) throw new AppError("forbidden", "Only an admin may issue set-password links.");
  const client = input.client ?? defaultDb();
  return client.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: input.userId }, select: { id: true, email: true, active: true } });
    if (!user) throw new AppError("not_found", "There is no such user.");
    if (!user.active) throw new AppError("user_inactive", "This person is deactivated: reactivate them before sending a link.");
    const link = await issuePasswordLink(tx, { userId: user.id, issuedById: input.actor.id, now: input.now });
    await recordAuditEvent(tx, {
      actorType: "user",
      actorId: input.actor.id,
      action: "user.password_link_issued",
      subjectType: "user",
      subjectId: user.id,
      inputs: { linkExpiresAt: link.expiresAt.toISOString() },
    });
    return { email: user.email, ...link };
  });
}
