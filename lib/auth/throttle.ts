// Failed sign-in counters, per account and per address, in the SignInThrottle table so that every
// app instance on one database counts together. Plain functions with explicit inputs (the clock, the
// limits): the caller decides, the tests can move time.
//
// Each key has a fixed window that starts at its first failure. Reaching the limit inside the window
// locks the key for one window length. A locked key is refused before the password is even
// compared, so the right password does not help during a lock. Unknown emails are counted like
// known ones: a lock message must not reveal which accounts exist.
import "server-only";
import { db, type DbTx } from "../db";
import { env } from "../env";

export interface TThrottleLimits {
  /** Failures per account inside one window before the account is locked. */
  maxFailures: number;
  /** Failures per client address, across all accounts, before the address is locked. */
  maxFailuresPerAddress: number;
  windowMinutes: number;
}

export function throttleLimits(): TThrottleLimits {
  const e = env();
  return { maxFailures: e.SIGNIN_MAX_FAILURES, maxFailuresPerAddress: e.SIGNIN_MAX_FAILURES_PER_ADDRESS, windowMinutes: e.SIGNIN_WINDOW_MINUTES };
}

export interface TThrottleSubject {
  email: string;
  /** The client's address, when known. Without one only the account is counted. */
  address?: string | null;
}

export type TThrottleState = { locked: false } | { locked: true; scope: "account" | "address"; until: Date; retryAfterMinutes: number };

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function accountKey(email: string): string {
  return `account:${normalizeEmail(email)}`;
}

export function addressKey(address: string): string {
  return `address:${address.trim().toLowerCase()}`;
}

function keysOf(subject: TThrottleSubject, limits: TThrottleLimits) {
  const keys: { key: string; scope: "account" | "address"; limit: number }[] = [
    { key: accountKey(subject.email), scope: "account", limit: limits.maxFailures },
  ];
  if (subject.address) keys.push({ key: addressKey(subject.address), scope: "address", limit: limits.maxFailuresPerAddress });
  return keys;
}

/** Whole minutes until `until`, at least 1, for the message a person reads. */
export function minutesUntil(until: Date, now: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));
}

function lockedState(scope: "account" | "address", until: Date, now: Date): TThrottleState {
  return { locked: true, scope, until, retryAfterMinutes: minutesUntil(until, now) };
}

/** Is the account or the address locked right now? The later of two locks wins. */
export async function checkSignInThrottle(input: TThrottleSubject & { now: Date; limits: TThrottleLimits }): Promise<TThrottleState> {
  const keys = keysOf(input, input.limits);
  const rows = await db().signInThrottle.findMany({ where: { key: { in: keys.map((k) => k.key) }, lockedUntil: { gt: input.now } } });
  let worst: TThrottleState = { locked: false };
  for (const row of rows) {
    const scope = keys.find((k) => k.key === row.key)!.scope;
    if (!worst.locked || row.lockedUntil! > worst.until) worst = lockedState(scope, row.lockedUntil!, input.now);
  }
  return worst;
}

// Two-key advisory locks live in a key space of their own, apart from the one-key lock the audit
// chain takes. Serialising per key keeps concurrent failures from losing counts on PostgreSQL.
const THROTTLE_LOCK_NAMESPACE = 0x7468726f; // "thro"

async function countFailure(tx: DbTx, key: string, limit: number, now: Date, windowMs: number) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${THROTTLE_LOCK_NAMESPACE}::int, hashtext(${key}))`;
  const row = await tx.signInThrottle.findUnique({ where: { key } });
  const windowOver = !row || now.getTime() - row.windowStart.getTime() >= windowMs;
  const failures = windowOver ? 1 : row.failures + 1;
  const windowStart = windowOver ? now : row.windowStart;
  const lockedUntil = failures >= limit ? new Date(now.getTime() + windowMs) : (row?.lockedUntil ?? null);
  return tx.signInThrottle.upsert({
    where: { key },
    create: { key, failures, windowStart, lockedUntil },
    update: { failures, windowStart, lockedUntil },
  });
}

/**
 * Counts one failed sign-in against the account and the address. Returns the state afterwards, so
 * the failure that reaches the limit can already say "locked". `lockedNow` names the keys this very
 * failure locked (for the audit trail).
 */
export async function recordSignInFailure(
  input: TThrottleSubject & { now: Date; limits: TThrottleLimits },
): Promise<TThrottleState & { lockedNow: ("account" | "address")[] }> {
  const windowMs = input.limits.windowMinutes * 60_000;
  const keys = keysOf(input, input.limits);
  const rows = await db().$transaction(async (tx) => {
    const out = [];
    // Always in the same order (account, then address), so two transactions cannot deadlock.
    for (const k of keys) out.push({ ...k, row: await countFailure(tx, k.key, k.limit, input.now, windowMs) });
    return out;
  });
  let state: TThrottleState = { locked: false };
  const lockedNow: ("account" | "address")[] = [];
  for (const { scope, limit, row } of rows) {
    if (row.lockedUntil && row.lockedUntil > input.now) {
      if (row.failures === limit) lockedNow.push(scope);
      if (!state.locked || row.lockedUntil > state.until) state = lockedState(scope, row.lockedUntil, input.now);
    }
  }
  return { ...state, lockedNow };
}

/**
 * A successful sign-in clears the account's counter. The address counter stays: one valid account
 * must not let an address keep guessing at others.
 */
export async function recordSignInSuccess(input: { email: string }): Promise<void> {
  await db().signInThrottle.deleteMany({ where: { key: accountKey(input.email) } });
}

/** Deletes counters whose window has passed and whose lock (if any) has ended. For housekeeping. */
export async function pruneSignInThrottles(input: { now: Date; limits: TThrottleLimits }): Promise<number> {
  const windowFloor = new Date(input.now.getTime() - input.limits.windowMinutes * 60_000);
  const { count } = await db().signInThrottle.deleteMany({
    where: { windowStart: { lte: windowFloor }, OR: [{ lockedUntil: null }, { lockedUntil: { lte: input.now } }] },
  });
  return count;
}
