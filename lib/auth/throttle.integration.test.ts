import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { db } from "../db";
import { accountKey, addressKey, checkSignInThrottle, pruneSignInThrottles, recordSignInFailure, recordSignInSuccess, type TThrottleLimits } from "./throttle";

useTestDb();

const limits: TThrottleLimits = { maxFailures: 3, maxFailuresPerAddress: 5, windowMinutes: 15 };
const t0 = new Date("2026-03-02T09:00:00.000Z");
const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);

let n = 0;
/** A fresh email and address per test, so tests sharing the file's database do not see each other. */
function fresh() {
  n += 1;
  return { email: `Reviewer${n}@Example.test`, address: `10.0.0.${n}` };
}

async function fail(subject: { email: string; address?: string | null }, now: Date, times = 1) {
  let last;
  for (let i = 0; i < times; i++) last = await recordSignInFailure({ ...subject, now, limits });
  return last!;
}

describe("sign-in throttle", () => {
  it("locks an account after maxFailures inside the window, for one window length", async () => {
    const s = fresh();
    expect(await fail(s, at(0), 2)).toMatchObject({ locked: false, lockedNow: [] });
    expect(await checkSignInThrottle({ ...s, now: at(1), limits })).toEqual({ locked: false });

    const third = await fail(s, at(2));
    expect(third).toMatchObject({ locked: true, scope: "account", retryAfterMinutes: 15, lockedNow: ["account"] });
    expect(third.locked && third.until.toISOString()).toBe(at(17).toISOString());

    // Still locked a minute before the end, with the minutes rounded up; free afterwards.
    expect(await checkSignInThrottle({ ...s, now: at(16.5), limits })).toMatchObject({ locked: true, scope: "account", retryAfterMinutes: 1 });
    expect(await checkSignInThrottle({ ...s, now: at(17), limits })).toEqual({ locked: false });
  });

  it("keys the account by its normalised email", async () => {
    const s = fresh();
    await fail({ email: s.email.toUpperCase() }, at(0), 2);
    await fail({ email: `  ${s.email.toLowerCase()} ` }, at(0), 1);
    expect(await checkSignInThrottle({ email: s.email, now: at(1), limits })).toMatchObject({ locked: true, scope: "account" });
    const row = await db().signInThrottle.findUnique({ where: { key: accountKey(s.email) } });
    expect(row).toMatchObject({ key: `account:${s.email.toLowerCase()}`, failures: 3 });
  });

  it("counts failures per address across accounts", async () => {
    const { address } = fresh();
    // Five different accounts, one failure each: no account is near its limit, the address is.
    for (let i = 0; i < 4; i++) expect(await fail({ email: `spray${i}@example.test`, address }, at(i))).toMatchObject({ locked: false });
    const fifth = await fail({ email: "spray4@example.test", address }, at(4));
    expect(fifth).toMatchObject({ locked: true, scope: "address", lockedNow: ["address"] });

    // Any account from that address is refused; the same account from elsewhere is not.
    expect(await checkSignInThrottle({ email: "someone-else@example.test", address, now: at(5), limits })).toMatchObject({ locked: true, scope: "address" });
    expect(await checkSignInThrottle({ email: "spray4@example.test", address: "192.0.2.77", now: at(5), limits })).toEqual({ locked: false });
    expect(await db().signInThrottle.findUnique({ where: { key: addressKey(address) } })).toMatchObject({ failures: 5 });
  });

  it("starts a new window once the old one has passed", async () => {
    const s = fresh();
    await fail(s, at(0), 2);
    // 15 minutes after the first failure the window is over: this failure is the first of a new one.
    expect(await fail(s, at(15))).toMatchObject({ locked: false });
    const row = await db().signInThrottle.findUnique({ where: { key: accountKey(s.email) } });
    expect(row).toMatchObject({ failures: 1 });
    expect(row!.windowStart.toISOString()).toBe(at(15).toISOString());
    await fail(s, at(16), 1);
    expect(await checkSignInThrottle({ ...s, now: at(17), limits })).toEqual({ locked: false });
    expect(await fail(s, at(18))).toMatchObject({ locked: true, scope: "account" });
  });

  it("a lock that has run out lets the next window start from zero", async () => {
    const s = fresh();
    await fail(s, at(0), 3);
    expect(await checkSignInThrottle({ ...s, now: at(10), limits })).toMatchObject({ locked: true });
    // After the lock: one more failure does not lock again.
    expect(await fail(s, at(16))).toMatchObject({ locked: false });
  });

  it("success resets the account counter but not the address counter", async () => {
    const s = fresh();
    await fail(s, at(0), 2);
    await recordSignInSuccess({ email: s.email.toUpperCase() });
    expect(await db().signInThrottle.findUnique({ where: { key: accountKey(s.email) } })).toBeNull();
    expect(await db().signInThrottle.findUnique({ where: { key: addressKey(s.address) } })).toMatchObject({ failures: 2 });
    // Two more failures are again below the account limit.
    expect(await fail(s, at(1), 2)).toMatchObject({ locked: false });
  });

  it("reports the later lock when both the account and the address are locked", async () => {
    const s = fresh();
    const tight = { ...limits, maxFailuresPerAddress: 3 };
    await recordSignInFailure({ ...s, now: at(0), limits: tight });
    await recordSignInFailure({ ...s, now: at(1), limits: tight });
    const third = await recordSignInFailure({ ...s, now: at(2), limits: tight });
    expect(third).toMatchObject({ locked: true, lockedNow: ["account", "address"] });
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
    expect(keys).not.toContain(accountKey(old.email));
    expect(keys).not.toContain(accountKey(locked.email));
    expect(keys).toContain(accountKey(recent.email));
  });

  it("loses no count under concurrent failures (meaningful on PostgreSQL)", async () => {
    const s = fresh();
    const wide = { ...limits, maxFailures: 100, maxFailuresPerAddress: 100 };
    await Promise.all(Array.from({ length: 12 }, () => recordSignInFailure({ ...s, now: at(0), limits: wide })));
    expect(await db().signInThrottle.findUnique({ where: { key: accountKey(s.email) } })).toMatchObject({ failures: 12 });
    expect(await db().signInThrottle.findUnique({ where: { key: addressKey(s.address) } })).toMatchObject({ failures: 12 });
  });
});
