// The person's side of a set-password link: a password of their choosing, once. Answers with values
// rather than throwing, like sign-in: the page that calls it has no session and says each refusal in
// its own words. A link's token is a credential like a password, so its form passes the same gates
// as sign-in: the throttle (throttle.ts) and the bound on hashing (hash-gate.ts).
import "server-only";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { recordAuditEvent } from "../audit/record-audit-event";
import { db as defaultDb, type Db } from "../db";
import { plainText } from "../contracts/text";
import { signInHashGate, type THashGate } from "./hash-gate";
import { hashPassword, MIN_PASSWORD_LENGTH } from "./password";
import { hashLinkToken, isLinkToken } from "./password-link";
import { checkSignInThrottle, recordSignInFailure, type TThrottleLimits } from "./throttle";

export const ZNewPassword = plainText(
  z.string().min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`).max(1024, "must be at most 1,024 characters"),
);

export type TSetPasswordOutcome =
  | { status: "ok"; email: string }
  | { status: "invalid_password"; message: string }
  /** Unknown, used, voided by a newer link, or for a deactivated person: the page says "ask for a new one". */
  | { status: "link_unusable" }
  | { status: "link_expired" }
  /** Too many unusable links from this address (the sign-in throttle): refused before any lookup. */
  | { status: "locked"; retryAfterMinutes: number }
  /** The bound on password hashing is full (hash-gate.ts): nothing was set, try again. */
  | { status: "busy" };

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

/** The throttle's subject for set-password links: one pseudo-account (no email has this form), counted per address. */
export const LINK_SUBJECT = "(set-password link)";

type TSetPasswordInput = {
  token: string;
  password: string;
  now: Date;
  /** The client's address, for the throttle's pair and address counters (as at sign-in). */
  address?: string | null;
  limits: TThrottleLimits;
  /** Where the hash waits its turn; the process's sign-in gate by default. */
  gate?: THashGate;
  /** How the throttle's wait is spent; a real timer by default. */
  wait?: (ms: number) => Promise<unknown>;
  client?: Db;
};

/**
 * Sets the password and spends the link, in the order sign-in checks a password: the input, the
 * throttle (a locked address is refused, a flood waits), then the link looked up – an unknown, used,
 * voided or expired one is refused and counted as a failure without any hashing – and only then the
 * hash, at the sign-in gate's bound (hash-gate.ts). Every session the person held ends with it (a
 * reset password should not leave an old session signed in). The link's row is locked and read
 * again in the transaction, so two submissions of one link cannot both set a password.
 */
export async function setPasswordWithLink(input: TSetPasswordInput): Promise<TSetPasswordOutcome> {
  if (!isLinkToken(input.token)) return { status: "link_unusable" };
  const password = ZNewPassword.safeParse(input.password);
  if (!password.success) return { status: "invalid_password", message: `The password ${password.error.issues[0]!.message}.` };
  const subject = { email: LINK_SUBJECT, address: input.address, now: input.now, limits: input.limits };
  const before = await checkSignInThrottle(subject);
  if (before.locked) return { status: "locked", retryAfterMinutes: before.retryAfterMinutes };
  if (before.delayMs > 0) await (input.wait ?? sleep)(before.delayMs);
  const client = input.client ?? defaultDb();
  const found = await describePasswordLink({ token: input.token, now: input.now, client });
  if (found.status !== "usable") {
    await recordSignInFailure(subject);
    return found;
  }
  // Hashed before the transaction: scrypt takes tens of milliseconds and holds no lock meanwhile.
  const hashed = await (input.gate ?? signInHashGate()).run(() => hashPassword(password.data));
  if (!hashed.ran) return { status: "busy" };
  return spendLink(client, input.token, hashed.value, input.now);
}

async function spendLink(client: Db, token: string, passwordHash: string, now: Date): Promise<TSetPasswordOutcome> {
  return client.$transaction(async (tx): Promise<TSetPasswordOutcome> => {
    const [link] = await tx.$queryRaw<{ id: string; userId: string; expiresAt: Date; usedAt: Date | null }[]>`
      SELECT "id"::text, "userId"::text, "expiresAt", "usedAt" FROM "PasswordLink" WHERE "tokenHash" = ${hashLinkToken(token)} FOR UPDATE`;
    if (!link || link.usedAt) return { status: "link_unusable" };
    if (link.expiresAt.getTime() <= now.getTime()) return { status: "link_expired" };
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
    await tx.passwordLink.update({ where: { id: link.id }, data: { usedAt: now } });
    await tx.user.update({ where: { id: user.id }, data: { passwordHash, passwordPending: false } });
    await tx.userSession.updateMany({ where: { userId: user.id, revokedAt: null }, data: { revokedAt: now } });
    return { status: "ok", email: user.email };
  });
}
