import { beforeAll, describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { verifyAuditChain } from "../audit/verify-audit-chain";
import { db } from "../db";
import { verifySignIn } from "./credentials";
import { createHashGate } from "./hash-gate";
import { hashPassword } from "./password";
import { accountKey, pairKey, type TThrottleLimits } from "./throttle";

const testDb = useTestDb();

const limits: TThrottleLimits = {
  maxFailures: 3,
  maxFailuresPerAddress: 50,
  windowMinutes: 15,
  accountDelayAfter: 6,
  accountDelayMaxSeconds: 5,
};
const now = new Date("2026-03-02T09:00:00.000Z");
const minutes = (m: number) => new Date(now.getTime() + m * 60_000);
const PASSWORD = "correct horse battery staple";

/** The account's waits, recorded instead of slept: no test here depends on a clock. */
function waits() {
  const spent: number[] = [];
  return { spent, wait: async (ms: number) => void spent.push(ms) };
}

beforeAll(async () => {
  const passwordHash = await hashPassword(PASSWORD);
  await db().user.createMany({
    data: [
      { email: "ada@example.test", name: "Ada Reviewer", role: "REVIEWER", passwordHash },
      { email: "locky@example.test", name: "Locky", role: "SPECIALIST", passwordHash },
      { email: "admin@example.test", name: "Admin", role: "ADMIN", passwordHash },
      { email: "busy@example.test", name: "Busy", role: "REVIEWER", passwordHash },
      { email: "gone@example.test", name: "Gone", role: "LEAD", passwordHash, active: false },
    ],
  });
});

describe("verifySignIn", () => {
  it("signs in with the right password, whatever the email's case, and audits it", async () => {
    const outcome = await verifySignIn({ email: " ADA@example.test ", password: PASSWORD, address: "10.1.0.1", now, limits });
    expect(outcome).toMatchObject({
      status: "ok",
      user: { email: "ada@example.test", name: "Ada Reviewer", role: "REVIEWER", sessionVersion: 0 },
    });
    const event = await db().auditEvent.findFirst({ where: { action: "auth.signed_in" }, orderBy: { seq: "desc" } });
    expect(event).toMatchObject({ actorType: "user", subjectType: "user" });
    expect(event!.actorId).toBe(outcome.status === "ok" ? outcome.user.id : "");
  });

  it("gives one answer for a wrong password, an unknown email and an inactive account", async () => {
    expect(await verifySignIn({ email: "ada@example.test", password: "wrong password!", address: "10.1.0.2", now, limits })).toEqual({
      status: "invalid",
    });
    expect(await verifySignIn({ email: "nobody@example.test", password: PASSWORD, address: "10.1.0.2", now, limits })).toEqual({
      status: "invalid",
    });
    expect(await verifySignIn({ email: "gone@example.test", password: PASSWORD, address: "10.1.0.2", now, limits })).toEqual({
      status: "invalid",
    });
    expect(await verifySignIn({ email: "", password: "", address: "10.1.0.2", now, limits })).toEqual({ status: "invalid" });
  });

  it("locks the account for the address that failed, even with the right password, and says for how long", async () => {
    const from = "10.2.0.1";
    for (let i = 0; i < 2; i++)
      expect(await verifySignIn({ email: "locky@example.test", password: "nope nope nope", address: from, now, limits })).toEqual({
        status: "invalid",
      });
    // The failure that reaches the limit already answers "locked".
    expect(await verifySignIn({ email: "locky@example.test", password: "nope nope nope", address: from, now, limits })).toEqual({
      status: "locked",
      retryAfterMinutes: 15,
    });
    expect(await verifySignIn({ email: "locky@example.test", password: PASSWORD, address: from, now: minutes(5), limits })).toEqual({
      status: "locked",
      retryAfterMinutes: 10,
    });
    const locked = await db().auditEvent.findFirst({ where: { action: "auth.sign_in_locked" } });
    expect(locked).toMatchObject({
      actorType: "system",
      subjectType: "user",
      inputs: expect.objectContaining({ scopes: ["pair"], address: from }),
    });
    // From another address the owner signs in at once, during that lock.
    expect(
      await verifySignIn({ email: "locky@example.test", password: PASSWORD, address: "10.2.0.2", now: minutes(5), limits }),
    ).toMatchObject({ status: "ok" });
    // After the lock the right password works from the first address again.
    expect(await verifySignIn({ email: "locky@example.test", password: PASSWORD, address: from, now: minutes(16), limits })).toMatchObject({
      status: "ok",
    });
  });

  it("a stranger failing from many addresses cannot lock the owner out: the owner's right password works after a short wait", async () => {
    const stranger = ["198.51.100.1", "198.51.100.2", "198.51.100.3", "198.51.100.4"];
    for (const address of stranger) {
      for (let i = 1; i <= 3; i++) {
        const outcome = await verifySignIn({
          email: "admin@example.test",
          password: `guess ${i}`,
          address,
          now,
          limits,
          wait: waits().wait,
        });
        expect(outcome).toEqual(i < 3 ? { status: "invalid" } : { status: "locked", retryAfterMinutes: 15 });
      }
    }
    expect(await db().signInThrottle.findUnique({ where: { key: accountKey("admin@example.test") } })).toMatchObject({
      failures: 12,
      lockedUntil: null,
    });

    const owner = waits();
    expect(
      await verifySignIn({
        email: "admin@example.test",
        password: PASSWORD,
        address: "192.0.2.10",
        now: minutes(1),
        limits,
        wait: owner.wait,
      }),
    ).toMatchObject({ status: "ok", user: { email: "admin@example.test" } });
    // 12 failures, 6 past the mark: 2^6 s, capped at 5 s.
    expect(owner.spent).toEqual([5000]);

    // The burst was noticed once, naming the account and how many addresses took part.
    const bursts = await db().auditEvent.findMany({ where: { action: "auth.sign_in_burst_noticed" } });
    expect(bursts).toHaveLength(1);
    expect(bursts[0]).toMatchObject({
      actorType: "system",
      subjectType: "user",
      inputs: expect.objectContaining({ failures: 6, addresses: 2, lastAddress: "198.51.100.2" }),
    });
    const admin = await db().user.findUniqueOrThrow({ where: { email: "admin@example.test" } });
    expect(bursts[0]!.subjectId).toBe(admin.id);
    expect((await verifyAuditChain(testDb().client, { publicKey: null })).ok).toBe(true);
  });

  it("locks unknown emails and makes them wait like real ones, so neither reveals which accounts exist", async () => {
    const { wait } = waits();
    for (let i = 0; i < 2; i++)
      await verifySignIn({ email: "ghost@example.test", password: "guess guess", address: "10.3.0.1", now, limits, wait });
    expect(
      await verifySignIn({ email: "ghost@example.test", password: "guess guess", address: "10.3.0.1", now, limits, wait }),
    ).toMatchObject({ status: "locked" });
    for (const address of ["10.3.0.2", "10.3.0.3"])
      for (let i = 0; i < 3; i++) await verifySignIn({ email: "ghost@example.test", password: "guess guess", address, now, limits, wait });
    const ghost = waits();
    expect(
      await verifySignIn({ email: "ghost@example.test", password: "guess guess", address: "10.3.0.9", now, limits, wait: ghost.wait }),
    ).toEqual({ status: "invalid" });
    expect(ghost.spent).toEqual([5000]);
    // An unknown email's burst is noticed without naming it.
    expect(await db().auditEvent.count({ where: { action: "auth.sign_in_burst_noticed", subjectType: "sign_in", subjectId: null } })).toBe(
      1,
    );
  });

  it("refuses at once when the password checks are full, comparing and counting nothing", async () => {
    const gate = createHashGate({ concurrency: 1, queue: 0 });
    let release!: () => void;
    const holding = gate.run(() => new Promise<void>((resolve) => (release = resolve)));
    expect(await verifySignIn({ email: "busy@example.test", password: "wrong password!", address: "10.4.0.1", now, limits, gate })).toEqual(
      { status: "busy" },
    );
    expect(await verifySignIn({ email: "busy@example.test", password: PASSWORD, address: "10.4.0.1", now, limits, gate })).toEqual({
      status: "busy",
    });
    expect(
      await db().signInThrottle.count({
        where: { key: { in: [accountKey("busy@example.test"), pairKey("busy@example.test", "10.4.0.1")] } },
      }),
    ).toBe(0);
    release();
    await holding;
    expect(await verifySignIn({ email: "busy@example.test", password: PASSWORD, address: "10.4.0.1", now, limits, gate })).toMatchObject({
      status: "ok",
    });
    expect(gate.load()).toEqual({ running: 0, waiting: 0 });
  });
});
