// The person's side of a set-password link: a password of their choosing, once. Answers with values
// rather than throwing, like sign-in: the page that calls it has no session and says each refusal in
// its own words.
import "server-only";
import { z } from "zod";
import { recordAuditEvent } from "../audit/record-audit-event";
import { db as defaultDb, type Db } from "../db";
import { plainText } from "../contracts/text";
import { hashPassword, MIN_PASSWORD_LENGTH } from "./password";
import { hashLinkToken, isLinkToken } from "./password-link";

export const ZNewPassword = plainText(
  z.string().min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`).max(1024, "must be at most 1,024 characters"),
);

export type TSetPasswordOutcome =
  | { status: "ok"; email: string }
  | { status: "invalid_password"; message: string }
  /** Unknown, used, voided by a newer link, or for a deactivated person: the page says "ask for a new one". */
  | { status: "link_unusable" }
  | { status: "link_expired" };

/** What the link's page shows before anything is typed: whose link it is, or why it no longer works. Spends nothing. */
export async function describePasswordLink(input: {
  token: string;
  now: Date;
  client?: Db;
}): Promise<{ status: "usable"; email: string } | { status: "link_unusable" } | { status: "link_expired" }> {
  if (!isLinkToken(input.token)) return { status: "link_unusable" };
  const link = await (input.client ?? defaultDb()).passwordLink.findUnique({
    where: { tokenHash: hashLinkToken(input.token) },
    select: { expiresAt: true, usedAt: true, user: { select: { email: true, active: true } } },
  });
  if (!link || link.usedAt || !link.user.active) return { status: "link_unusable" };
  if (link.expiresAt.getTime() <= input.now.getTime()) return { status: "link_expired" };
  return { status: "usable", email: link.user.email };
}

/**
 * Sets the password and spends the link in one transaction; every session the person held ends with
 * it (a reset password should not leave an old session signed in). The link's row is locked, so two
 * submissions of one link cannot both set a password.
 */
export async function setPasswordWithLink(input: {
  token: string;
  password: string;
  now: Date;
  client?: Db;
}): Promise<TSetPasswordOutcome> {
  if (!isLinkToken(input.token)) return { status: "link_unusable" };
  const password = ZNewPassword.safeParse(input.password);
  if (!password.success) return { status: "invalid_password", message: `The password ${password.error.issues[0]!.message}.` };
  // Hashed before the transaction: scrypt takes tens of milliseconds and holds no lock meanwhile.
  const passwordHash = await hashPassword(password.data);
  const client = input.client ?? defaultDb();
  return client.$transaction(async (tx): Promise<TSetPasswordOutcome> => {
    const [link] = await tx.$queryRaw<{ id: string; userId: string; expiresAt: Date; usedAt: Date | null }[]>`
      SELECT "id"::text, "userId"::text, "expiresAt", "usedAt" FROM "PasswordLink" WHERE "tokenHash" = ${hashLinkToken(input.token)} FOR UPDATE`;
    if (!link || link.usedAt) return { status: "link_unusable" };
    if (link.expiresAt.getTime() <= input.now.getTime()) return { status: "link_expired" };
    const user = await tx.user.findUnique({ where: { id: link.userId }, select: { id: true, email: true, active: true } });
    if (!user?.active) return { status: "link_unusable" };
    await recordAuditEvent(tx, {
      actorType: "user",
      actorId: user.id,
      action: "user.password_set",
      subjectType: "user",
      subjectId: user.id,
      inputs: { link: link.id },
    });
    await tx.passwordLink.update({ where: { id: link.id }, data: { usedAt: input.now } });
    await tx.user.update({ where: { id: user.id }, data: { passwordHash } });
    await tx.userSession.updateMany({ where: { userId: user.id, revokedAt: null }, data: { revokedAt: input.now } });
    return { status: "ok", email: user.email };
  });
}
