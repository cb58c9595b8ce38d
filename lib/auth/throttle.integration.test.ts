import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { db } from "../db";
import {
  accountDelayMs,
  accountKey,
  addressKey,
  checkSignInThrottle,
  pairKey,
  pruneSignInThrottles,
  recordSignInFailure,
  recordSignInSuccess,
  type TThrottleLimits,
} from "./throttle";

useTestDb();

const limits: TThrottleLimits = {
  maxFailures: 3,
  maxFailuresPerAddress: 5,
  windowMinutes: 15,
  accountDelayAfter: 6,
  accountDelayMaxSeconds: 8,
};
const t0 = new Date("2026-03-02T09:00:00.000Z");
const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);

let n = 0;
/** A fresh email and address per test, so tests sharing the file's database do not see each other. */
function fresh() {
  n += 1;
  return { email: `Reviewer${n}@Example.test`, address: `10.0.0.${n}` };
}

async function fail(subject: { email: string; address?: string | null }, now: Date, times = 1, within = limits) {
  let last;
  for (let i = 0; i < times; i++) last = await recordSignInFailure({ ...subject, now, limits: within });
  return last!;
}

const row = (key: string) => db().signInThrottle.findUnique({ where: { key } });

describe("sign-in throttle", () => {
  it("locks one account from one address after maxFailures inside the window, for one window length", async () => {
    const s = fresh();
    expect(await fail(s, at(0), 2)).toMatchObject({ locked: false, lockedNow: [] });
    expect(await checkSignInThrottle({ ...s, now: at(1), limits })).toEqual({ locked: false, delayMs: 0 });

    const third = await fail(s, at(2));
    expect(third).toMatchObject({ locked: true, scope: "pair", retryAfterMinutes: 15, lockedNow: ["pair"] });
    expect(third.locked && third.until.toISOString()).toBe(at(17).toISOString());

    // Still locked a minute before the end, with the minutes rounded up; free afterwards.
    expect(await checkSignInThrottle({ ...s, now: at(16.5), limits })).toMatchObject({ locked: true, scope: "pair", retryAfterMinutes: 1 });
    expect(await checkSignInThrottle({ ...s, now: at(17), limits })).toEqual({ locked: false, delayMs: 0 });
  });

  it("locks only that pair: the account from elsewhere, and other accounts from there, are not locked", async () => {
    const s = fresh();
    await fail(s, at(0), 3);
    expect(await checkSignInThrottle({ ...s, now: at(1), limits })).toMatchObject({ locked: true, scope: "pair" });
    expect(await checkSignInThrottle({ email: s.email, address: "192.0.2.44", now: at(1), limits })).toEqual({ locked: false, delayMs: 0 });
    expect(await checkSignInThrottle({ email: "colleague@example.test", address: s.address, now: at(1), limits })).toEqual({
      locked: false,
      delayMs: 0,
    });
  });

  it("never locks an account: failures from many addresses make each attempt on it wait, growing and capped", async () => {
    const { email } = fresh();
    const addresses = ["198.51.100.1", "198.51.100.2", "198.51.100.3", "198.51.100.4"];
    // Two addresses, three failures each: every pair is locked, the account has 6 failures.
    for (const address of addresses.slice(0, 2)) await fail({ email, address }, at(0), 3);
    const owner = { email, address: "192.0.2.10" };
    expect(await checkSignInThrottle({ ...owner, now: at(1), limits })).toEqual({ locked: false, delayMs: 1000 });
    await fail({ email, address: addresses[2] }, at(1));
    expect(await checkSignInThrottle({ ...owner, now: at(1), limits })).toEqual({ locked: false, delayMs: 2000 });
    await fail({ email, address: addresses[2] }, at(1), 2);
    await fail({ email, address: addresses[3] }, at(1), 3);
    // 12 failures: 2^6 s, capped at 8 s. Still no lock, for the owner's address or any other fresh one.
    expect(await checkSignInThrottle({ ...owner, now: at(2), limits })).toEqual({ locked: false, delayMs: 8000 });
    expect(await row(accountKey(email))).toMatchObject({ failures: 12, lockedUntil: null });
    // The wait ends with the account's window.
    expect(await checkSignInThrottle({ ...owner, now: at(15), limits })).toEqual({ locked: false, delayMs: 0 });
  });

  it("grows the wait from 1 s, doubling per failure, up to the cap", () => {
    expect([0, 5, 6, 7, 8, 9, 10, 1000].map((f) => accountDelayMs(f, limits))).toEqual([0, 0, 1000, 2000, 4000, 8000, 8000, 8000]);
    expect(accountDelayMs(6, { ...limits, accountDelayAfter: 7 })).toBe(0);
  });

  it("notices a burst once per window: the failure that reaches accountDelayAfter, with how many addresses took part", async () => {
    const { email } = fresh();
    const outcomes = [];
    for (const [i, address] of ["203.0.113.1", "203.0.113.2", "203.0.113.3"].entries())
      outcomes.push(...[await fail({ email, address }, at(i)), await fail({ email, address }, at(i))]);
    expect(outcomes.map((o) => o.accountFailures)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(outcomes.slice(0, 5).every((o) => o.burst === null)).toBe(true);
    expect(outcomes[5]!.burst).toEqual({ failures: 6, addresses: 3, since: at(0) });
    expect((await fail({ email, address: "203.0.113.4" }, at(3))).burst).toBeNull();
    // A new window: noticed again when it reaches the mark again.
    let last;
    for (let i = 0; i < 6; i++) last = await fail({ email, address: `203.0.113.${10 + (i % 3)}` }, at(20));
    expect(last!.burst).toEqual({ failures: 6, addresses: 3, since: at(20) });
  });

  it("keys the pair by the normalised email", async () => {
    const s = fresh();
    await fail({ email: s.email.toUpperCase(), address: s.address }, at(0), 2);
    await fail({ email: `  ${s.email.toLowerCase()} `, address: s.address }, at(0), 1);
    expect(await checkSignInThrottle({ ...s, now: at(1), limits })).toMatchObject({ locked: true, scope: "pair" });
    expect(await row(pairKey(s.email, s.address))).toMatchObject({ key: `pair:${s.email.toLowerCase()}\n${s.address}`, failures: 3 });
  });

  it("counts failures per address across accounts", async () => {
    const { address } = fresh();
    // Five different accounts, one failure each: no pair is near its limit, the address is.
    for (let i = 0; i < 4; i++) expect(await fail({ email: `spray${i}@example.test`, address }, at(i))).toMatchObject({ locked: false });
    const fifth = await fail({ email: "spray4@example.test", address }, at(4));
    expect(fifth).toMatchObject({ locked: true, scope: "address", lockedNow: ["address"] });

    // Any account from that address is refused; the same account from elsewhere is not.
    expect(await checkSignInThrottle({ email: "someone-else@example.test", address, now: at(5), limits })).toMatchObject({
      locked: true,
      scope: "address",
    });
    expect(await checkSignInThrottle({ email: "spray4@example.test", address: "192.0.2.77", now: at(5), limits })).toEqual({
      locked: false,
      delayMs: 0,
    });
    expect(await row(addressKey(address))).toMatchObject({ failures: 5 });
  });

  it("counts attempts without an address as one pair per account, and no address", async () => {
    const s = fresh();
    expect(await fail({ email: s.email, address: null }, at(0), 3)).toMatchObject({ locked: true, scope: "pair" });
    expect(await checkSignInThrottle({ email: s.email, now: at(1), limits })).toMatchObject({ locked: true, scope: "pair" });
    expect(await checkSignInThrottle({ ...s, now: at(1), limits })).toEqual({ locked: false, delayMs: 0 });
  });

  it("starts a new window once the old one has passed", async () => {
    const s = fresh();
    await fail(s, at(0), 2);
    // 15 minutes after the first failure the window is over: this failure is the first of a new one.
    expect(await fail(s, at(15))).toMatchObject({ locked: false, accountFailures: 1 });
    const pair = await row(pairKey(s.email, s.address));
    expect(pair).toMatchObject({ failures: 1 });
    expect(pair!.windowStart.toISOString()).toBe(at(15).toISOString());
    await fail(s, at(16), 1);
    expect(await checkSignInThrottle({ ...s, now: at(17), limits })).toEqual({ locked: false, delayMs: 0 });
    expect(await fail(s, at(18))).toMatchObject({ locked: true, scope: "pair" });
  });

  it("a lock that has run out lets the next window start from zero", async () => {
    const s = fresh();
    await fail(s, at(0), 3);
    expect(await checkSignInThrottle({ ...s, now: at(10), limits })).toMatchObject({ locked: true });
    // After the lock: one more failure does not lock again.
    expect(await fail(s, at(16))).toMatchObject({ locked: false });
  });

  it("success resets its own pair's counter, not the address's nor the account's", async () => {
    const s = fresh();
    await fail(s, at(0), 2);
    await fail({ email: s.email, address: "192.0.2.99" }, at(0), 2);
    await recordSignInSuccess({ email: s.email.toUpperCase(), address: s.address });
    expect(await row(pairKey(s.email, s.address))).toBeNull();
    expect(await row(pairKey(s.email, "192.0.2.99"))).toMatchObject({ failures: 2 });
    expect(await row(addressKey(s.address))).toMatchObject({ failures: 2 });
    expect(await row(accountKey(s.email))).toMatchObject({ failures: 4 });
    // Two more failures are again below the pair's limit.
    expect(await fail(s, at(1), 2)).toMatchObject({ locked: false });
  });

  it("reports the later lock when both the pair and the address are locked", async () => {
    const s = fresh();
    const tight = { ...limits, maxFailuresPerAddress: 3 };
    await fail(s, at(0), 1, tight);
    await fail(s, at(1), 1, tight);
    const third = await fail(s, at(2), 1, tight);
    expect(third).toMatchObject({ locked: true, lockedNow: ["pair", "address"] });
  });

  it("prunes counters whose window and lock have both ended", async () => {
    const old = fresh();
    const locked = fresh();
    const recent = fresh();
    await fail(old, at(0));
    await fail(locked, at(10), 3); // locked until at(25)
    await fail(recent, at(20));
    await pruneSignInThrottles({ now: at(26), limits });
    const keys = (await db().signInThrottle.findMany({ select: { key: true } })).map((r) => r.key);
    expect(keys).not.toContain(pairKey(old.email, old.address));
    expect(keys).not.toContain(pairKey(locked.email, locked.address));
    expect(keys).toContain(pairKey(recent.email, recent.address));
    expect(keys).toContain(accountKey(recent.email));
  });

  it("loses no count and notices a burst exactly once under concurrent failures (meaningful on PostgreSQL)", async () => {
    const s = fresh();
    const wide = { ...limits, maxFailures: 100, maxFailuresPerAddress: 100 };
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        recordSignInFailure({ email: s.email, address: i % 2 ? s.address : "192.0.2.250", now: at(0), limits: wide }),
      ),
    );
    expect(await row(accountKey(s.email))).toMatchObject({ failures: 12 });
    expect(await row(pairKey(s.email, s.address))).toMatchObject({ failures: 6 });
    expect(await row(addressKey(s.address))).toMatchObject({ failures: 6 });
    expect(results.map((r) => r.accountFailures).sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(results.filter((r) => r.burst !== null)).toHaveLength(1);
  });
});
