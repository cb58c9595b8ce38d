import { beforeAll, describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { db } from "../db";
import { verifySignIn } from "./credentials";
import { hashPassword } from "./password";
import type { TThrottleLimits } from "./throttle";

useTestDb();

const limits: TThrottleLimits = { maxFailures: 3, maxFailuresPerAddress: 50, windowMinutes: 15 };
const now = new Date("2026-03-02T09:00:00.000Z");
const PASSWORD = "correct horse battery staple";

beforeAll(async () => {
  const passwordHash = await hashPassword(PASSWORD);
  await db().user.createMany({
    data: [
      { email: "ada@example.test", name: "Ada Reviewer", role: "REVIEWER", passwordHash },
      { email: "locky@example.test", name: "Locky", role: "SPECIALIST", passwordHash },
      { email: "gone@example.test", name: "Gone", role: "LEAD", passwordHash, active: false },
    ],
  });
});

describe("verifySignIn", () => {
  it("signs in with the right password, whatever the email's case, and audits it", async () => {
    const outcome = await verifySignIn({ email: " ADA@example.test ", password: PASSWORD, address: "10.1.0.1", now, limits });
    expect(outcome).toMatchObject({ status: "ok", user: { email: "ada@example.test", name: "Ada Reviewer", role: "REVIEWER", sessionVersion: 0 } });
    const event = await db().auditEvent.findFirst({ where: { action: "auth.signed_in" }, orderBy: { seq: "desc" } });
    expect(event).toMatchObject({ actorType: "user", subjectType: "user" });
    expect(event!.actorId).toBe(outcome.status === "ok" ? outcome.user.id : "");
  });

  it("gives one answer for a wrong password, an unknown email and an inactive account", async () => {
    expect(await verifySignIn({ email: "ada@example.test", password: "wrong password!", address: "10.1.0.2", now, limits })).toEqual({ status: "invalid" });
    expect(await verifySignIn({ email: "nobody@example.test", password: PASSWORD, address: "10.1.0.2", now, limits })).toEqual({ status: "invalid" });
    expect(await verifySignIn({ email: "gone@example.test", password: PASSWORD, address: "10.1.0.2", now, limits })).toEqual({ status: "invalid" });
    expect(await verifySignIn({ email: "", password: "", address: "10.1.0.2", now, limits })).toEqual({ status: "invalid" });
  });

  it("refuses a locked account even with the right password, and says for how long", async () => {
    for (let i = 0; i < 2; i++) expect(await verifySignIn({ email: "locky@example.test", password: "nope nope nope", now, limits })).toEqual({ status: "invalid" });
    // The failure that reaches the limit already answers "locked".
    expect(await verifySignIn({ email: "locky@example.test", password: "nope nope nope", now, limits })).toEqual({ status: "locked", retryAfterMinutes: 15 });
    const later = new Date(now.getTime() + 5 * 60_000);
    expect(await verifySignIn({ email: "locky@example.test", password: PASSWORD, now: later, limits })).toEqual({ status: "locked", retryAfterMinutes: 10 });
    const locked = await db().auditEvent.findFirst({ where: { action: "auth.sign_in_locked" } });
    expect(locked).toMatchObject({ actorType: "system", subjectType: "user", inputs: expect.objectContaining({ scopes: ["account"] }) });
    // After the lock the right password works again.
    const after = new Date(now.getTime() + 16 * 60_000);
    expect(await verifySignIn({ email: "locky@example.test", password: PASSWORD, now: after, limits })).toMatchObject({ status: "ok" });
  });

  it("locks unknown emails too, so a lock message does not reveal which accounts exist", async () => {
    for (let i = 0; i < 2; i++) await verifySignIn({ email: "ghost@example.test", password: "guess guess", now, limits });
    expect(await verifySignIn({ email: "ghost@example.test", password: "guess guess", now, limits })).toMatchObject({ status: "locked" });
  });
});
