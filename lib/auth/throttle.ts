// Failed sign-in counters in the SignInThrottle table, so that every app instance on one database
// counts together. Plain functions with explicit inputs (the clock, the limits): the caller decides,
// the tests can move time.
//
// Three counters, each a fixed window that starts at its first failure:
//   pair     one account from one address. Reaching maxFailures locks that pair for a window: whoever
//            guesses from there must stop, and nobody else is affected.
//   address  one address across accounts. Reaching maxFailuresPerAddress locks the address for a
//            window: a spray over many accounts from one place stops.
//   account  one account from every address. It never locks: a stranger must not be able to lock a
//            real user out of their own password. From accountDelayAfter failures on, each attempt on
//            the account waits first (growing, capped at accountDelayMaxSeconds), and the failure
//            that reaches it is noticed once in the audit, with how many addresses took part.
// A locked pair or address is refused before the password is even compared, so the right password
// does not help from there during a lock. Unknown emails are counted like known ones: neither a lock
// nor a wait may reveal which accounts exist.
import "server-only";
import { db, type DbTx } from "../db";
import { env } from "../env";

export interface TThrottleLimits {
  /** Failures for one account from one address inside one window before that pair is locked. */
  maxFailures: number;
  /** Failures per client address, across all accounts, before the address is locked. */
  maxFailuresPerAddress: number;
  windowMinutes: number;
  /** Failures on one account, from any address, inside one window after which each attempt waits. */
  accountDelayAfter: number;
  /** The longest that wait grows to. */
  accountDelayMaxSeconds: number;
}

export function throttleLimits(): TThrottleLimits {
  const e = env();
  return {
    maxFailures: e.SIGNIN_MAX_FAILURES,
    maxFailuresPerAddress: e.SIGNIN_MAX_FAILURES_PER_ADDRESS,
    windowMinutes: e.SIGNIN_WINDOW_MINUTES,
    accountDelayAfter: e.SIGNIN_ACCOUNT_DELAY_AFTER,
    accountDelayMaxSeconds: e.SIGNIN_ACCOUNT_DELAY_MAX_SECONDS,
  };
}

export interface TThrottleSubject {
  email: string;
  /** The client's address, when known. Attempts without one share one pair per account and no address counter. */
  address?: string | null;
}

export type TLockScope = "pair" | "address";

export type TThrottleState =
  | { locked: false; /** How long this account's next attempt waits before its password is compared. */ delayMs: number }
  | { locked: true; scope: TLockScope; until: Date; retryAfterMinutes: number };

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function accountKey(email: string): string {
  return `account:${normalizeEmail(email)}`;
}

// A newline cannot occur in an address (normaliseAddress), so no email can make its pair key collide
// with another account's.
function pairPrefix(email: string): string {
  return `pair:${normalizeEmail(email)}\n`;
}

export function pairKey(email: string, address: string | null | undefined): string {
  return `${pairPrefix(email)}${address ? address.trim().toLowerCase() : "-"}`;
}

export function addressKey(address: string): string {
  return `address:${address.trim().toLowerCase()}`;
}

/** The wait before an account's attempt: none below accountDelayAfter failures, then 1 s doubling per failure, capped. */
export function accountDelayMs(failures: number, limits: TThrottleLimits): number {
  if (failures < limits.accountDelayAfter) return 0;
  return Math.min(limits.accountDelayMaxSeconds, 2 ** Math.min(failures - limits.accountDelayAfter, 16)) * 1000;
}

type TCounter = { key: string; scope: "account" | TLockScope; limit: number | null };

// Always in this order (account, pair, address): two transactions that count the same keys take
// their locks in the same order, so they cannot deadlock.
function countersOf(subject: TThrottleSubject, limits: TThrottleLimits): TCounter[] {
  const counters: TCounter[] = [
    { key: accountKey(subject.email), scope: "account", limit: null },
    { key: pairKey(subject.email, subject.address), scope: "pair", limit: limits.maxFailures },
  ];
  if (subject.address) counters.push({ key: addressKey(subject.address), scope: "address", limit: limits.maxFailuresPerAddress });
  return counters;
}

/** Whole minutes until `until`, at least 1, for the message a person reads. */
export function minutesUntil(until: Date, now: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));
}

function lockedState(scope: TLockScope, until: Date, now: Date): TThrottleState {
  return { locked: true, scope, until, retryAfterMinutes: minutesUntil(until, now) };
}

type TRow = { key: string; failures: number; windowStart: Date; lockedUntil: Date | null };

function stateOf(counters: TCounter[], rows: TRow[], now: Date, limits: TThrottleLimits): TThrottleState {
  const windowMs = limits.windowMinutes * 60_000;
  let worst: TThrottleState | null = null;
  let delayMs = 0;
  for (const row of rows) {
    const counter = counters.find((c) => c.key === row.key);
    if (!counter) continue;
    if (counter.scope === "account") {
      if (now.getTime() - row.windowStart.getTime() < windowMs) delayMs = accountDelayMs(row.failures, limits);
    } else if (row.lockedUntil && row.lockedUntil > now && (!worst?.locked || row.lockedUntil > worst.until)) {
      // The later of two locks wins: that is when an attempt from here can succeed again.
      worst = lockedState(counter.scope, row.lockedUntil, now);
    }
  }
  return worst ?? { locked: false, delayMs };
}

/** Is the pair or the address locked right now, and if not, how long must this attempt wait? */
export async function checkSignInThrottle(input: TThrottleSubject & { now: Date; limits: TThrottleLimits }): Promise<TThrottleState> {
  const counters = countersOf(input, input.limits);
  const rows = await db().signInThrottle.findMany({ where: { key: { in: counters.map((c) => c.key) } } });
  return stateOf(counters, rows, input.now, input.limits);
}

// Two-key advisory locks live in a key space of their own, apart from the one-key lock the audit
// chain takes. Serialising per key keeps concurrent failures from losing counts on PostgreSQL.
const THROTTLE_LOCK_NAMESPACE = 0x7468726f; // "thro"

async function countFailure(tx: DbTx, counter: TCounter, now: Date, windowMs: number): Promise<TRow> {
  const { key, limit } = counter;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${THROTTLE_LOCK_NAMESPACE}::int, hashtext(${key}))`;
  const row = await tx.signInThrottle.findUnique({ where: { key } });
  const windowOver = !row || now.getTime() - row.windowStart.getTime() >= windowMs;
  const failures = windowOver ? 1 : row.failures + 1;
  const windowStart = windowOver ? now : row.windowStart;
  const lockedUntil = limit !== null && failures >= limit ? new Date(now.getTime() + windowMs) : (row?.lockedUntil ?? null);
  return tx.signInThrottle.upsert({
    where: { key },
    create: { key, failures, windowStart, lockedUntil },
    update: { failures, windowStart, lockedUntil },
  });
}

export interface TFailureRecorded {
  /** The pair or address this very failure locked (for the audit trail). */
  lockedNow: TLockScope[];
  /** Failures on the account, from every address, in its current window. */
  accountFailures: number;
  /**
   * Set by the one failure that brings the account to accountDelayAfter in its window (once per
   * window, also under concurrent failures): the burst to record, with the number of addresses
   * counting failures on this account in a current window of their own.
   */
  burst: { failures: number; addresses: number; since: Date } | null;
}

/**
 * Counts one failed sign-in against the account, the pair and the address. Returns the state
 * afterwards, so the failure that reaches a limit can already say "locked".
 */
export async function recordSignInFailure(
  input: TThrottleSubject & { now: Date; limits: TThrottleLimits },
): Promise<TThrottleState & TFailureRecorded> {
  const windowMs = input.limits.windowMinutes * 60_000;
  const counters = countersOf(input, input.limits);
  const { rows, burst } = await db().$transaction(async (tx) => {
    const rows: TRow[] = [];
    for (const counter of counters) rows.push(await countFailure(tx, counter, input.now, windowMs));
    const account = rows[0]!;
    let burst: TFailureRecorded["burst"] = null;
    if (account.failures === input.limits.accountDelayAfter) {
      const [{ addresses }] = await tx.$queryRaw<[{ addresses: number }]>`
        SELECT count(*)::int AS addresses FROM "SignInThrottle"
        WHERE starts_with("key", ${pairPrefix(input.email)}) AND "windowStart" > ${new Date(input.now.getTime() - windowMs)}`;
      burst = { failures: account.failures, addresses, since: account.windowStart };
    }
    return { rows, burst };
  });
  const lockedNow = rows.flatMap((row, i) => {
    const counter = counters[i]!;
    return counter.scope !== "account" && row.failures === counter.limit ? [counter.scope] : [];
  });
  return { ...stateOf(counters, rows, input.now, input.limits), lockedNow, accountFailures: rows[0]!.failures, burst };
}

/**
 * A successful sign-in clears its own pair's counter, nothing else: the address counter stays (one
 * valid account must not let an address keep guessing at others), and so does the account's (the
 * owner signing in does not end a stranger's guessing).
 */
export async function recordSignInSuccess(input: TThrottleSubject): Promise<void> {
  await db().signInThrottle.deleteMany({ where: { key: pairKey(input.email, input.address) } });
}

/** Deletes counters whose window has passed and whose lock (if any) has ended. For housekeeping. */
export async function pruneSignInThrottles(input: { now: Date; limits: TThrottleLimits }): Promise<number> {
  const windowFloor = new Date(input.now.getTime() - input.limits.windowMinutes * 60_000);
  const { count } = await db().signInThrottle.deleteMany({
    where: { windowStart: { lte: windowFloor }, OR: [{ lockedUntil: null }, { lockedUntil: { lte: input.now } }] },
  });
  return count;
}
