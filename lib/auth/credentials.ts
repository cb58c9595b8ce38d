// Checks an email and password against the User table, under the sign-in throttle (throttle.ts) and
// the bound on password checks (hash-gate.ts). Plain function, explicit inputs; next-auth's
// Credentials provider (lib/auth/auth.ts) is a thin shell around it.
import "server-only";
import { setTimeout as sleep } from "node:timers/promises";
import { recordAuditEvent } from "../audit/record-audit-event";
import { db } from "../db";
import { signInHashGate, type THashGate } from "./hash-gate";
import { loadSsoPolicy } from "./oidc-settings";
import { openSession, type TVerifiedUser } from "./open-session";
import { decoyHash, verifyPassword } from "./password";
import { checkSignInThrottle, normalizeEmail, recordSignInFailure, recordSignInSuccess, type TThrottleLimits } from "./throttle";

export type { TVerifiedUser };

export type TSignInOutcome =
  | { status: "ok"; user: TVerifiedUser }
  /** Unknown email, wrong password or inactive account: deliberately one answer for all three. */
  | { status: "invalid" }
  /** This account from this address, or this address, failed too often: refused before any comparison. */
  | { status: "locked"; retryAfterMinutes: number }
  /** Too many password checks running and waiting in this process: refused at once, nothing counted. */
  | { status: "busy" }
  /** The right password, but the admin requires sign-in through the identity provider, and this is not
   * the break-glass admin. Told only to someone who knew the password. */
  | { status: "sso_required" };

// Longer input is refused before any hashing: scrypt on a megabyte is a cheap denial of service.
const MAX_EMAIL = 320;
const MAX_PASSWORD = 1024;

type TSignInInput = {
  email: string;
  password: string;
  address?: string | null;
  /** The browser's User-Agent, kept with the session so its holder can tell their sessions apart. */
  userAgent?: string | null;
  now: Date;
  limits: TThrottleLimits;
  /** Where password checks wait their turn; the process's own by default. */
  gate?: THashGate;
  /** How the account's wait is spent; a real timer by default (tests record it instead). */
  wait?: (ms: number) => Promise<unknown>;
};
type TSubject = Parameters<typeof checkSignInThrottle>[0];
type TAccount = Omit<TVerifiedUser, "sessionId"> & { active: boolean; passwordHash: string | null };

/** The gates, in order: the input's size, the gate's room, the throttle, the password; then the session. */
export async function verifySignIn(input: TSignInInput): Promise<TSignInOutcome> {
  const email = normalizeEmail(input.email);
  if (!email || !input.password || email.length > MAX_EMAIL || input.password.length > MAX_PASSWORD) return { status: "invalid" };
  const subject = { email, address: input.address, now: input.now, limits: input.limits };
  // Under a flood most attempts end here, before any query: on the embedded database every query
  // runs on the server's one thread, so even the throttle's reads would take time from signed-in users.
  const gate = input.gate ?? signInHashGate();
  if (gate.full()) return { status: "busy" };

  const throttled = await passThrottle(subject, input.wait ?? sleep);
  if (throttled) return throttled;

  const checked = await checkPassword(email, input.password, gate);
  if (checked === "busy") return { status: "busy" };
  const { user } = checked;
  if (!user || !user.active || !checked.matches) return refuseSignIn(subject, user, input);

  await recordSignInSuccess(subject);
  if (!(await passwordAllowed(user.id))) return { status: "sso_required" };
  return { status: "ok", user: await openSession(user, input) };
}

/** Whether a password may sign this account in: always, unless the admin requires SSO and it is not the break-glass admin. */
async function passwordAllowed(userId: string): Promise<boolean> {
  const policy = await loadSsoPolicy(db());
  return !policy.requireSso || policy.breakGlassUserId === userId;
}

/**
 * The throttle before any comparison: a locked pair or address is refused. An account many addresses
 * are guessing at makes every attempt on it wait, the owner's too, but the owner's right password
 * still works afterwards. The wait holds no CPU and no turn at the gate.
 */
async function passThrottle(subject: TSubject, wait: (ms: number) => Promise<unknown>): Promise<TSignInOutcome | null> {
  const before = await checkSignInThrottle(subject);
  if (before.locked) return { status: "locked", retryAfterMinutes: before.retryAfterMinutes };
  if (before.delayMs > 0) await wait(before.delayMs);
  return null;
}

/** The account and whether the password is its own, compared at the gate; "busy" when no turn came. */
async function checkPassword(
  email: string,
  password: string,
  gate: THashGate,
): Promise<{ user: TAccount | null; matches: boolean } | "busy"> {
  const user = await db().user.findFirst({
    where: { email: { equals: email, mode: "insensitive" } },
    select: { id: true, email: true, name: true, role: true, active: true, sessionVersion: true, passwordHash: true },
  });
  // Always run one scrypt comparison, against a decoy when there is no such user, so the time
  // taken does not tell which emails have accounts.
  const stored = user?.passwordHash ?? (await decoyHash());
  const checked = await gate.run(() => verifyPassword(password, stored));
  return checked.ran ? { user, matches: checked.value } : "busy";
}

/** A failed attempt: counted, a lock or a burst it causes audited, and one answer for every cause. */
async function refuseSignIn(subject: TSubject, user: TAccount | null, input: TSignInInput): Promise<TSignInOutcome> {
  const after = await recordSignInFailure(subject);
  if (after.lockedNow.length > 0 || after.burst) {
    // A real account is named by its id; an unknown email is not recorded at all.
    const subjectOf = { subjectType: user ? "user" : "sign_in", subjectId: user ? user.id : null } as const;
    await db().$transaction(async (tx) => {
      if (after.lockedNow.length > 0) {
        await recordAuditEvent(tx, {
          actorType: "system",
          action: "auth.sign_in_locked",
          ...subjectOf,
          inputs: { scopes: after.lockedNow, address: input.address ?? null, until: after.locked ? after.until.toISOString() : null },
        });
      }
      if (after.burst) {
        await recordAuditEvent(tx, {
          actorType: "system",
          action: "auth.sign_in_burst_noticed",
          ...subjectOf,
          inputs: {
            failures: after.burst.failures,
            addresses: after.burst.addresses,
            since: after.burst.since.toISOString(),
            lastAddress: input.address ?? null,
            delayUpToSeconds: input.limits.accountDelayMaxSeconds,
          },
        });
      }
    });
  }
  return after.locked ? { status: "locked", retryAfterMinutes: after.retryAfterMinutes } : { status: "invalid" };
}
