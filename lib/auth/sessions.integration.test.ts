// Sessions that end: the server's half of every session (UserSession) decides whether a cookie still
// counts. Sign-out, "sign out everywhere" and an admin's revocation end sessions for every instance;
// role changes and deactivation still apply at once; idle sessions end and are swept.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { drainQueue } from "../../testing/queue";
import { refusalCode } from "../../testing/refusals";
import { verifyAuditChain } from "../audit/verify-audit-chain";
import { db, openDb } from "../db";
import { enqueue } from "../jobs/queue";
import { SWEEP_SESSIONS_JOB } from "../jobs/definitions";
import { verifySignIn } from "./credentials";
import { endSession } from "./end-session";
import { loadSessionUser, type TSessionClaims } from "./load-session-user";
import { hashPassword } from "./password";
import { revokeUserSessions } from "./revoke-user-sessions";
import { SESSION_MAX_AGE_SECONDS, SESSION_TOUCH_SECONDS } from "./session-lifetime";
import { deleteExpiredSessions } from "./sweep-sessions";
import type { TThrottleLimits } from "./throttle";

const testDb = useTestDb();

const limits: TThrottleLimits = {
  maxFailures: 50,
  maxFailuresPerAddress: 500,
  windowMinutes: 15,
  accountDelayAfter: 1_000,
  accountDelayMaxSeconds: 5,
};
const PASSWORD = "correct horse battery staple";
const ROLES = { reviewer: "REVIEWER", specialist: "SPECIALIST", lead: "LEAD", admin: "ADMIN" } as const;
const ids: Record<keyof typeof ROLES, string> = { reviewer: "", specialist: "", lead: "", admin: "" };

beforeAll(async () => {
  const passwordHash = await hashPassword(PASSWORD);
  for (const [key, role] of Object.entries(ROLES) as [keyof typeof ROLES, (typeof ROLES)[keyof typeof ROLES]][]) {
    const user = await db().user.create({ data: { email: `${key}@sessions.test`, name: key, role, passwordHash }, select: { id: true } });
    ids[key] = user.id;
  }
});

/** A real sign-in (verifySignIn, as the Credentials provider calls it): the claims its cookie would carry. */
async function signIn(who: keyof typeof ROLES, now = new Date(), userAgent = "Vitest"): Promise<TSessionClaims> {
  const outcome = await verifySignIn({ email: `${who}@sessions.test`, password: PASSWORD, address: "10.9.0.1", userAgent, now, limits });
  if (outcome.status !== "ok") throw new Error(`sign-in as ${who}: ${outcome.status}`);
  return { id: outcome.user.id, sessionVersion: outcome.user.sessionVersion, sessionId: outcome.user.sessionId };
}

const load = (claims: TSessionClaims, now = new Date()) => loadSessionUser({ claims, now });
const actor = (who: keyof typeof ROLES) => ({ id: ids[who], role: ROLES[who] });
const events = (action: "auth.signed_out" | "user.sessions_revoked", subjectId: string) =>
  db().auditEvent.findMany({ where: { action, subjectId }, orderBy: { seq: "asc" } });

describe("a session, on the server", () => {
  it("is minted at sign-in: a row with its user agent, named by the sign-in's event", async () => {
    const claims = await signIn("specialist", new Date(), "Mozilla/5.0 (X11) Countersign-Test");
    const row = await db().userSession.findUniqueOrThrow({ where: { id: claims.sessionId } });
    expect(row).toMatchObject({ userId: ids.specialist, userAgent: "Mozilla/5.0 (X11) Countersign-Test", revokedAt: null });
    const event = await db().auditEvent.findFirst({
      where: { action: "auth.signed_in", subjectId: ids.specialist },
      orderBy: { seq: "desc" },
    });
    expect(event?.inputs).toMatchObject({ session: claims.sessionId });
    expect(await load(claims)).toEqual({
      id: ids.specialist,
      email: "specialist@sessions.test",
      name: "specialist",
      role: "SPECIALIST",
      sessionId: claims.sessionId,
    });
  });

  it("ends at sign-out: the same claims replayed afterwards are refused, and signing out again records nothing", async () => {
    const claims = await signIn("reviewer");
    const other = await signIn("reviewer");
    expect(await load(claims)).not.toBeNull();
    expect(await endSession({ sessionId: claims.sessionId, userId: claims.id, now: new Date() })).toEqual({ ended: true });
    // The replay: a copy of the cookie kept from before the sign-out.
    expect(await load(claims)).toBeNull();
    expect(await load(claims)).toBeNull();
    // Only that session: the person's other browser is still signed in.
    expect(await load(other)).not.toBeNull();
    expect(await endSession({ sessionId: claims.sessionId, userId: claims.id, now: new Date() })).toEqual({ ended: false });
    const signedOut = await events("auth.signed_out", ids.reviewer);
    expect(signedOut.map((e) => e.inputs)).toEqual([{ session: claims.sessionId }]);
    expect(signedOut[0]).toMatchObject({ actorType: "user", actorId: ids.reviewer });
  });

  it("cannot be ended through another user's id, and another user's session id names nobody", async () => {
    const lead = await signIn("lead");
    expect(await endSession({ sessionId: lead.sessionId, userId: ids.reviewer, now: new Date() })).toEqual({ ended: false });
    expect(await load(lead)).not.toBeNull();
    // A token that pairs one user with another's session (which only the secret could mint) counts for nobody.
    expect(await load({ ...lead, id: ids.admin })).toBeNull();
  });

  it("refuses a session with no row: never minted, or swept", async () => {
    const claims = await signIn("lead");
    expect(await load({ ...claims, sessionId: randomUUID() })).toBeNull();
    await db().userSession.delete({ where: { id: claims.sessionId } });
    expect(await load(claims)).toBeNull();
  });

  it("still applies a role change and a deactivation at the next request", async () => {
    const claims = await signIn("specialist");
    await db().user.update({ where: { id: ids.specialist }, data: { role: "REVIEWER" } });
    expect(await load(claims)).toMatchObject({ role: "REVIEWER" });
    await db().user.update({ where: { id: ids.specialist }, data: { role: "SPECIALIST", active: false } });
    expect(await load(claims)).toBeNull();
    await db().user.update({ where: { id: ids.specialist }, data: { active: true } });
    expect(await load(claims)).toMatchObject({ role: "SPECIALIST" });
    await db().user.update({ where: { id: ids.specialist }, data: { sessionVersion: { increment: 1 } } });
    expect(await load(claims)).toBeNull();
    await db().user.update({ where: { id: ids.specialist }, data: { sessionVersion: { decrement: 1 } } });
  });

  it("ends after its lifetime without use, and moves its last-seen time at most once per interval", async () => {
    const start = new Date("2026-03-02T09:00:00.000Z");
    const claims = await signIn("lead", start);
    const seen = async () => (await db().userSession.findUniqueOrThrow({ where: { id: claims.sessionId } })).lastSeenAt.toISOString();
    const at = (seconds: number) => new Date(start.getTime() + seconds * 1000);

    // Within the interval: one statement (the session joined to its user), nothing written.
    const counter = testDb().roundTrips;
    const before = counter.count;
    expect(await load(claims, at(SESSION_TOUCH_SECONDS - 1))).not.toBeNull();
    expect(counter.count - before).toBe(1);
    expect(await seen()).toBe(start.toISOString());

    // Past it: moved forward to the request's time.
    expect(await load(claims, at(SESSION_TOUCH_SECONDS + 1))).not.toBeNull();
    expect(await seen()).toBe(at(SESSION_TOUCH_SECONDS + 1).toISOString());

    // Used within the lifetime of its last use: still counts. Idle for the whole lifetime: refused.
    const lastUse = SESSION_TOUCH_SECONDS + 1;
    expect(await load(claims, at(lastUse + SESSION_MAX_AGE_SECONDS - 60))).not.toBeNull();
    const lastUse2 = lastUse + SESSION_MAX_AGE_SECONDS - 60;
    expect(await load(claims, at(lastUse2 + SESSION_MAX_AGE_SECONDS))).toBeNull();
  });
});

describe("signing out everywhere", () => {
  it("revokes every session of the person, and nobody else's, audited with the count", async () => {
    const mine = [await signIn("admin"), await signIn("admin"), await signIn("admin")];
    const theirs = await signIn("lead");
    expect(await revokeUserSessions({ userId: ids.admin, actor: actor("admin"), now: new Date() })).toEqual({ revoked: 3 });
    for (const claims of mine) expect(await load(claims)).toBeNull();
    expect(await load(theirs)).not.toBeNull();
    expect((await events("user.sessions_revoked", ids.admin)).map((e) => [e.actorId, e.inputs])).toEqual([
      [ids.admin, { sessions: 3, by: "self" }],
    ]);
    // A session opened afterwards counts: revocation ends sessions, not the account.
    expect(await load(await signIn("admin"))).not.toBeNull();
  });

  it("refuses a reviewer, a specialist and a lead who name someone else, before anything is touched", async () => {
    const target = await signIn("admin");
    const before = (await events("user.sessions_revoked", ids.admin)).length;
    for (const who of ["reviewer", "specialist", "lead"] as const) {
      expect(await refusalCode(revokeUserSessions({ userId: ids.admin, actor: actor(who), now: new Date() }))).toBe("forbidden");
      // Not even whether the user exists is answered.
      expect(await refusalCode(revokeUserSessions({ userId: randomUUID(), actor: actor(who), now: new Date() }))).toBe("forbidden");
    }
    expect(await load(target)).not.toBeNull();
    expect(await events("user.sessions_revoked", ids.admin)).toHaveLength(before);
  });

  it("lets an admin sign another person out everywhere, audited as the admin's act", async () => {
    const reviewer = [await signIn("reviewer"), await signIn("reviewer")];
    const admin = await signIn("admin");
    const result = await revokeUserSessions({ userId: ids.reviewer, actor: actor("admin"), now: new Date() });
    expect(result.revoked).toBeGreaterThanOrEqual(2);
    for (const claims of reviewer) expect(await load(claims)).toBeNull();
    expect(await load(admin)).not.toBeNull();
    const [last] = (await events("user.sessions_revoked", ids.reviewer)).reverse();
    expect(last).toMatchObject({ actorType: "user", actorId: ids.admin, inputs: { sessions: result.revoked, by: "admin" } });
    // Again: nothing left to revoke, and the request is still recorded.
    expect(await revokeUserSessions({ userId: ids.reviewer, actor: actor("admin"), now: new Date() })).toEqual({ revoked: 0 });
    expect(await refusalCode(revokeUserSessions({ userId: randomUUID(), actor: actor("admin"), now: new Date() }))).toBe("not_found");
  });

  it("keeps the audit chain intact", async () => {
    const report = await verifyAuditChain(testDb().client, { publicKey: null });
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
  });
});

describe("the sweep", () => {
  it("deletes sessions idle past their lifetime, revoked or not, and a swept session stays refused", async () => {
    const now = new Date();
    const old = await signIn("lead", new Date(now.getTime() - (SESSION_MAX_AGE_SECONDS + 60) * 1000));
    const oldRevoked = await signIn("lead", new Date(now.getTime() - (SESSION_MAX_AGE_SECONDS + 60) * 1000));
    await endSession({ sessionId: oldRevoked.sessionId, userId: oldRevoked.id, now });
    const fresh = await signIn("lead", now);
    const freshRevoked = await signIn("lead", now);
    await endSession({ sessionId: freshRevoked.sessionId, userId: freshRevoked.id, now });

    const { deleted } = await deleteExpiredSessions({ now });
    expect(deleted).toBeGreaterThanOrEqual(2);
    const left = new Set((await db().userSession.findMany({ select: { id: true } })).map((s) => s.id));
    expect(left.has(old.sessionId)).toBe(false);
    expect(left.has(oldRevoked.sessionId)).toBe(false);
    expect(left.has(fresh.sessionId)).toBe(true);
    // A revoked session within its lifetime stays, so its refusal stays explicit until it could not count anyway.
    expect(left.has(freshRevoked.sessionId)).toBe(true);
    expect(await load(old, now)).toBeNull();
    expect(await load(fresh, now)).not.toBeNull();
  });
});

describe("the sweep, as the worker runs it", () => {
  it("deletes an idle session when a sweep-sessions job is worked", async () => {
    const idle = await signIn("reviewer", new Date(Date.now() - (SESSION_MAX_AGE_SECONDS + 600) * 1000));
    await db().$transaction((tx) => enqueue(tx, SWEEP_SESSIONS_JOB, {}));
    await drainQueue(testDb());
    expect(await db().userSession.findUnique({ where: { id: idle.sessionId } })).toBeNull();
  });
});

describe.runIf(!!process.env.DATABASE_URL)("across instances (PostgreSQL)", () => {
  it("a sign-out on one instance is refused on another at its next request", async () => {
    // A second instance: a pool of its own on the same database.
    const pool = new pg.Pool({ connectionString: testDb().url!, max: 2 });
    const other = openDb({ kind: "postgres", url: testDb().url!, pool });
    try {
      const claims = await signIn("specialist");
      expect(await loadSessionUser({ claims, now: new Date(), client: other.client })).not.toBeNull();
      await endSession({ sessionId: claims.sessionId, userId: claims.id, now: new Date() });
      expect(await loadSessionUser({ claims, now: new Date(), client: other.client })).toBeNull();
    } finally {
      await other.close();
      // Only the driver used this pool, so Prisma may never have taken it over to dispose of it.
      if (!pool.ending) await pool.end();
    }
  });

  it("records one sign-out when the same session is signed out eight times at once", async () => {
    const claims = await signIn("lead");
    const results = await Promise.all(
      Array.from({ length: 8 }, () => endSession({ sessionId: claims.sessionId, userId: claims.id, now: new Date() })),
    );
    expect(results.filter((r) => r.ended)).toHaveLength(1);
    expect(
      (await events("auth.signed_out", ids.lead)).filter((e) => (e.inputs as { session?: string }).session === claims.sessionId),
    ).toHaveLength(1);
  });

  it("revokes each session once when the person and an admin sign them out everywhere at once", async () => {
    const sessions = [await signIn("specialist"), await signIn("specialist"), await signIn("specialist")];
    const live = await db().userSession.count({ where: { userId: ids.specialist, revokedAt: null } });
    expect(live).toBeGreaterThanOrEqual(3);
    const results = await Promise.all([
      revokeUserSessions({ userId: ids.specialist, actor: actor("specialist"), now: new Date() }),
      revokeUserSessions({ userId: ids.specialist, actor: actor("admin"), now: new Date() }),
      revokeUserSessions({ userId: ids.specialist, actor: actor("admin"), now: new Date() }),
    ]);
    expect(results.reduce((sum, r) => sum + r.revoked, 0)).toBe(live);
    for (const claims of sessions) expect(await load(claims)).toBeNull();
  });
});
