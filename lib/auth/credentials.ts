// Checks an email and password against the User table, under the sign-in throttle. Plain function,
// explicit inputs; next-auth's Credentials provider (lib/auth/auth.ts) is a thin shell around it.
import "server-only";
import { randomUUID } from "node:crypto";
import { recordAuditEvent } from "../audit/record-audit-event";
import { db } from "../db";
import { decoyHash, verifyPassword } from "./password";
import type { Role } from "../contracts/roles";
import { checkSignInThrottle, normalizeEmail, recordSignInFailure, recordSignInSuccess, type TThrottleLimits } from "./throttle";

export interface TVerifiedUser {
  id: string;
  email: string;
  name: string;
  role: Role;
  sessionVersion: number;
  /** The UserSession row this sign-in opened: the cookie names it, sign-out revokes it. */
  sessionId: string;
}

export type TSignInOutcome =
  | { status: "ok"; user: TVerifiedUser }
  /** Unknown email, wrong password or inactive account: deliberately one answer for all three. */
  | { status: "invalid" }
  | { status: "locked"; retryAfterMinutes: number };

// Longer input is refused before any hashing: scrypt on a megabyte is a cheap denial of service.
const MAX_EMAIL = 320;
const MAX_PASSWORD = 1024;
// A user agent is shown to the person beside their session, nothing more: a long one is cut.
const MAX_USER_AGENT = 300;

export async function verifySignIn(input: {
  email: string;
  password: string;
  address?: string | null;
  /** The browser's User-Agent, kept with the session so its holder can tell their sessions apart. */
  userAgent?: string | null;
  now: Date;
  limits: TThrottleLimits;
}): Promise<TSignInOutcome> {
  const email = normalizeEmail(input.email);
  if (!email || !input.password || email.length > MAX_EMAIL || input.password.length > MAX_PASSWORD) return { status: "invalid" };
  const subject = { email, address: input.address, now: input.now, limits: input.limits };

  const before = await checkSignInThrottle(subject);
  if (before.locked) return { status: "locked", retryAfterMinutes: before.retryAfterMinutes };

  const user = await db().user.findFirst({
    where: { email: { equals: email, mode: "insensitive" } },
    select: { id: true, email: true, name: true, role: true, active: true, sessionVersion: true, passwordHash: true },
  });
  // Always run one scrypt comparison, against a decoy when there is no such user, so the time
  // taken does not tell which emails have accounts.
  const passwordOk = await verifyPassword(input.password, user?.passwordHash ?? (await decoyHash()));

  if (!user || !user.active || !passwordOk) {
    const after = await recordSignInFailure(subject);
    if (after.lockedNow.length > 0) {
      await db().$transaction((tx) =>
        recordAuditEvent(tx, {
          actorType: "system",
          action: "auth.sign_in_locked",
          // A real account is named by its id; an unknown email is not recorded at all.
          subjectType: user ? "user" : "sign_in",
          subjectId: user ? user.id : null,
          inputs: { scopes: after.lockedNow, address: input.address ?? null, until: after.locked ? after.until.toISOString() : null },
        }),
      );
    }
    return after.locked ? { status: "locked", retryAfterMinutes: after.retryAfterMinutes } : { status: "invalid" };
  }

  await recordSignInSuccess({ email });
  // The session's row is the server's half of the cookie: it exists before the cookie does, and the
  // sign-in's event names it.
  const sessionId = randomUUID();
  await db().$transaction(async (tx) => {
    await recordAuditEvent(tx, {
      actorType: "user",
      actorId: user.id,
      action: "auth.signed_in",
      subjectType: "user",
      subjectId: user.id,
      inputs: { address: input.address ?? null, session: sessionId },
    });
    await tx.userSession.create({ data: { id: sessionId, userId: user.id, createdAt: input.now, lastSeenAt: input.now, userAgent: input.userAgent?.slice(0, MAX_USER_AGENT) || null } });
  });
  return { status: "ok", user: { id: user.id, email: user.email, name: user.name, role: user.role, sessionVersion: user.sessionVersion, sessionId } };
}
