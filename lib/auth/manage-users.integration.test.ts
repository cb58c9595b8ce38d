// People, managed by admins: adding someone with a set-password link (never a password in a form),
// the link working once and for 24 hours, role changes, deactivation and reactivation – each audited –
// and the rule that the app always keeps an active admin, even against two admins at once.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { refusalCode } from "../../testing/refusals";
import { verifyAuditChain } from "../audit/verify-audit-chain";
import { db, openDb } from "../db";
import { changeUserRole } from "./change-user-role";
import { createHashGate } from "./hash-gate";
import { verifySignIn } from "./credentials";
import { inviteUser } from "./invite-user";
import { loadSessionUser } from "./load-session-user";
import { hashPassword } from "./password";
import { hashLinkToken } from "./password-link";
import { reissuePasswordLink } from "./reissue-password-link";
import { setPasswordWithLink } from "./set-password-with-link";
import { setUserActive } from "./set-user-active";
import { addressKey, type TThrottleLimits } from "./throttle";

const testDb = useTestDb();
const limits: TThrottleLimits = {
  maxFailures: 50,
  maxFailuresPerAddress: 500,
  windowMinutes: 15,
  accountDelayAfter: 1_000,
  accountDelayMaxSeconds: 5,
};
const PASSWORD = "a long enough password";
let admin: { id: string; role: "ADMIN" };
let reviewer: { id: string; role: "REVIEWER" };

beforeAll(async () => {
  const passwordHash = await hashPassword(PASSWORD);
  admin = {
    id: (await db().user.create({ data: { email: "admin@people.test", name: "Admin", role: "ADMIN", passwordHash } })).id,
    role: "ADMIN",
  };
  reviewer = {
    id: (await db().user.create({ data: { email: "reviewer@people.test", name: "Rev", role: "REVIEWER", passwordHash } })).id,
    role: "REVIEWER",
  };
});

const signIn = (email: string, password: string) => verifySignIn({ email, password, address: "10.7.0.1", now: new Date(), limits });
/** The link's form as the action calls it, with this file's generous limits unless a test gives its own. */
const setPassword = (input: Omit<Parameters<typeof setPasswordWithLink>[0], "limits"> & { limits?: TThrottleLimits }) =>
  setPasswordWithLink({ limits, ...input });
const eventsOf = async (subjectId: string) =>
  (await db().auditEvent.findMany({ where: { subjectId }, orderBy: { seq: "asc" } })).map((e) => e.action);

describe("adding a person", () => {
  it("creates an account that refuses every sign-in until its link sets a password; the link works once", async () => {
    const now = new Date();
    const invited = await inviteUser({ email: " Dana@People.test ", role: "SPECIALIST", name: "Dana", actor: admin, now });
    expect(invited.user).toMatchObject({ email: "dana@people.test", role: "SPECIALIST", name: "Dana" });
    expect(invited.expiresAt.getTime() - now.getTime()).toBe(24 * 3_600_000);
    // Only the token's hash is stored.
    const stored = await db().passwordLink.findFirstOrThrow({ where: { userId: invited.user.id } });
    expect(stored.tokenHash).toBe(hashLinkToken(invited.token));
    expect(JSON.stringify(stored)).not.toContain(invited.token);
    expect((await signIn("dana@people.test", "")).status).toBe("invalid");

    expect(await setPassword({ token: invited.token, password: "short", now })).toMatchObject({ status: "invalid_password" });
    expect(await setPassword({ token: invited.token, password: "dana's own password", now })).toEqual({
      status: "ok",
      email: "dana@people.test",
    });
    expect((await signIn("dana@people.test", "dana's own password")).status).toBe("ok");
    // A replay of the same link, even with another password, is refused and changes nothing.
    expect(await setPassword({ token: invited.token, password: "an attacker's password", now })).toEqual({
      status: "link_unusable",
    });
    expect((await signIn("dana@people.test", "an attacker's password")).status).toBe("invalid");
    expect(await eventsOf(invited.user.id)).toEqual(["user.invited", "user.password_set", "auth.signed_in"]);
  });

  it("refuses a link after 24 hours, an unknown or malformed token, and a link voided by a newer one", async () => {
    const then = new Date("2026-11-20T10:00:00Z");
    const invited = await inviteUser({ email: "eli@people.test", role: "REVIEWER", name: "Eli", actor: admin, now: then });
    const late = new Date(then.getTime() + 24 * 3_600_000);
    expect(await setPassword({ token: invited.token, password: "eli's own password", now: late })).toEqual({
      status: "link_expired",
    });
    expect(await setPassword({ token: "A".repeat(43), password: "eli's own password", now: then })).toEqual({
      status: "link_unusable",
    });
    expect(await setPassword({ token: "../../etc", password: "eli's own password", now: then })).toEqual({
      status: "link_unusable",
    });
    const second = await reissuePasswordLink({ userId: invited.user.id, actor: admin, now: then });
    expect(await setPassword({ token: invited.token, password: "eli's own password", now: then })).toEqual({
      status: "link_unusable",
    });
    expect(await setPassword({ token: second.token, password: "eli's own password", now: then })).toMatchObject({ status: "ok" });
  });

  it("ends the person's sessions when a link resets their password", async () => {
    const signedIn = await signIn("reviewer@people.test", PASSWORD);
    if (signedIn.status !== "ok") throw new Error(signedIn.status);
    const link = await reissuePasswordLink({ userId: reviewer.id, actor: admin, now: new Date() });
    // The old password works until the link is used.
    expect((await signIn("reviewer@people.test", PASSWORD)).status).toBe("ok");
    await setPassword({ token: link.token, password: PASSWORD + " again", now: new Date() });
    const claims = { id: reviewer.id, sessionVersion: signedIn.user.sessionVersion, sessionId: signedIn.user.sessionId };
    expect(await loadSessionUser({ claims, now: new Date() })).toBeNull();
    expect((await signIn("reviewer@people.test", PASSWORD)).status).toBe("invalid");
  });

  it("is for admins only, refuses a duplicate email by field, and a bad role", async () => {
    expect(await refusalCode(inviteUser({ email: "x@people.test", role: "REVIEWER", name: "X", actor: reviewer, now: new Date() }))).toBe(
      "forbidden",
    );
    expect(await refusalCode(reissuePasswordLink({ userId: admin.id, actor: reviewer, now: new Date() }))).toBe("forbidden");
    const duplicate = await inviteUser({ email: "ADMIN@people.test", role: "REVIEWER", name: "X", actor: admin, now: new Date() }).catch(
      (e: unknown) => e,
    );
    expect(duplicate).toMatchObject({ code: "invalid", field: "email" });
    expect(
      await inviteUser({ email: "y@people.test", role: "ROOT", name: "Y", actor: admin, now: new Date() }).catch((e: unknown) => e),
    ).toMatchObject({ code: "invalid", field: "role" });
    expect(await db().user.count({ where: { email: { in: ["x@people.test", "y@people.test"] } } })).toBe(0);
  });
});

describe("a set-password link's gates", () => {
  const aToken = () => randomBytes(32).toString("base64url");
  const passwordOf = async (id: string) => (await db().user.findUniqueOrThrow({ where: { id } })).passwordHash;

  it("refuses an unknown or expired link without a turn at the hash gate, counting it; a usable link needs a turn", async () => {
    const now = new Date();
    const invited = await inviteUser({ email: "kim@people.test", role: "REVIEWER", name: "Kim", actor: admin, now });
    const hashBefore = await passwordOf(invited.user.id);
    const yesterday = new Date(now.getTime() - 24 * 3_600_000);
    const expired = await inviteUser({ email: "kit@people.test", role: "REVIEWER", name: "Kit", actor: admin, now: yesterday });
    const address = "10.9.0.1";
    const failures = async () => (await db().signInThrottle.findUnique({ where: { key: addressKey(address) } }))?.failures ?? 0;
    // The gate's one turn is taken and nothing may queue: a submission that had to hash would be refused as busy.
    const gate = createHashGate({ concurrency: 1, queue: 0 });
    let free!: () => void;
    const held = gate.run(() => new Promise<void>((resolve) => (free = resolve)));
    try {
      expect(await setPassword({ token: aToken(), password: "kim's own password", now, address, gate })).toEqual({
        status: "link_unusable",
      });
      expect(await setPassword({ token: expired.token, password: "kit's own password", now, address, gate })).toEqual({
        status: "link_expired",
      });
      expect(await failures()).toBe(2);
      // The usable link is the only one that reaches the hash, and so the only one that waits for a turn.
      expect(await setPassword({ token: invited.token, password: "kim's own password", now, address, gate })).toEqual({ status: "busy" });
      expect(await failures()).toBe(2);
      expect(await passwordOf(invited.user.id)).toBe(hashBefore);
    } finally {
      free();
      await held;
    }
    expect(await setPassword({ token: invited.token, password: "kim's own password", now, address, gate })).toMatchObject({ status: "ok" });
  });

  it("locks an address that keeps sending links that do not work: even a good link is refused there, not elsewhere", async () => {
    const now = new Date();
    const invited = await inviteUser({ email: "lou@people.test", role: "REVIEWER", name: "Lou", actor: admin, now });
    const hashBefore = await passwordOf(invited.user.id);
    const strict = { ...limits, maxFailures: 3 };
    const address = "10.9.0.2";
    for (let i = 0; i < 3; i++)
      expect(await setPassword({ token: aToken(), password: "lou's own password", now, address, limits: strict })).toEqual({
        status: "link_unusable",
      });
    expect(await setPassword({ token: invited.token, password: "lou's own password", now, address, limits: strict })).toEqual({
      status: "locked",
      retryAfterMinutes: 15,
    });
    expect(await passwordOf(invited.user.id)).toBe(hashBefore);
    expect(
      await setPassword({ token: invited.token, password: "lou's own password", now, address: "10.9.0.3", limits: strict }),
    ).toMatchObject({ status: "ok" });
  });
});

describe("roles and deactivation", () => {
  it("changes a role at once for the person's next request, audited with from and to", async () => {
    const invited = await inviteUser({ email: "fay@people.test", role: "REVIEWER", name: "Fay", actor: admin, now: new Date() });
    expect(await changeUserRole({ userId: invited.user.id, role: "LEAD", actor: admin })).toEqual({ from: "REVIEWER", to: "LEAD" });
    const event = await db().auditEvent.findFirstOrThrow({ where: { subjectId: invited.user.id, action: "user.role_changed" } });
    expect(event.inputs).toEqual({ from: "REVIEWER", to: "LEAD" });
    expect(await refusalCode(changeUserRole({ userId: invited.user.id, role: "ADMIN", actor: reviewer }))).toBe("forbidden");
    expect(await refusalCode(changeUserRole({ userId: "00000000-0000-4000-8000-000000000000", role: "LEAD", actor: admin }))).toBe(
      "not_found",
    );
  });

  it("deactivation ends sessions, voids links and unassigns tickets; reactivation restores sign-in", async () => {
    const invited = await inviteUser({ email: "gus@people.test", role: "REVIEWER", name: "Gus", actor: admin, now: new Date() });
    await setPassword({ token: invited.token, password: "gus's own password", now: new Date() });
    const session = await signIn("gus@people.test", "gus's own password");
    if (session.status !== "ok") throw new Error(session.status);
    const pending = await reissuePasswordLink({ userId: invited.user.id, actor: admin, now: new Date() });
    for (const n of [1, 2]) {
      await db().ticket.create({
        data: {
          subject: `t${n}`,
          body: "b",
          customerEmail: "c@people.test",
          source: "seed",
          externalId: `people-${n}`,
          route: "guarded_agent",
          bundleVersion: "test",
          admission: "admitted",
          assigneeId: invited.user.id,
        },
      });
    }

    expect(await setUserActive({ userId: invited.user.id, active: false, actor: admin, now: new Date() })).toEqual({
      changed: true,
      sessionsEnded: 1,
      linksVoided: 1,
      ticketsUnassigned: 2,
    });
    expect(await db().ticket.count({ where: { assigneeId: invited.user.id } })).toBe(0);
    expect(
      await loadSessionUser({
        claims: { id: invited.user.id, sessionVersion: session.user.sessionVersion, sessionId: session.user.sessionId },
        now: new Date(),
      }),
    ).toBeNull();
    expect((await signIn("gus@people.test", "gus's own password")).status).toBe("invalid");
    expect(await setPassword({ token: pending.token, password: "gus's new password", now: new Date() })).toEqual({
      status: "link_unusable",
    });
    expect(await refusalCode(reissuePasswordLink({ userId: invited.user.id, actor: admin, now: new Date() }))).toBe("user_inactive");
    // Deactivating twice changes nothing and records nothing more.
    expect(await setUserActive({ userId: invited.user.id, active: false, actor: admin, now: new Date() })).toEqual({ changed: false });

    await setUserActive({ userId: invited.user.id, active: true, actor: admin, now: new Date() });
    expect((await signIn("gus@people.test", "gus's own password")).status).toBe("ok");
    expect((await eventsOf(invited.user.id)).filter((a) => a.startsWith("user."))).toEqual([
      "user.invited",
      "user.password_set",
      "user.password_link_issued",
      "user.deactivated",
      "user.reactivated",
    ]);
  });

  it("never leaves the app without an active admin", async () => {
    const admins = await db().user.findMany({ where: { role: "ADMIN", active: true } });
    expect(admins.map((a) => a.id)).toEqual([admin.id]);
    expect(await refusalCode(changeUserRole({ userId: admin.id, role: "LEAD", actor: admin }))).toBe("last_admin");
    expect(await refusalCode(setUserActive({ userId: admin.id, active: false, actor: admin, now: new Date() }))).toBe("last_admin");
    // An invited admin who never set a password cannot sign in: they do not count, whether their
    // link is still valid or not (once it expires, nobody could sign in to make them a new one).
    const second = await inviteUser({ email: "hal@people.test", role: "ADMIN", name: "Hal", actor: admin, now: new Date() });
    expect(await refusalCode(changeUserRole({ userId: admin.id, role: "LEAD", actor: admin }))).toBe("last_admin");
    expect(await refusalCode(setUserActive({ userId: admin.id, active: false, actor: second.user, now: new Date() }))).toBe("last_admin");
    expect(await db().user.findUniqueOrThrow({ where: { id: admin.id } })).toMatchObject({ role: "ADMIN", active: true });
    // With a second admin who can sign in, either may go – but not both.
    await setPassword({ token: second.token, password: "hal's own password", now: new Date() });
    expect(await setUserActive({ userId: second.user.id, active: false, actor: admin, now: new Date() })).toMatchObject({ changed: true });
    expect(await refusalCode(changeUserRole({ userId: admin.id, role: "LEAD", actor: admin }))).toBe("last_admin");
    await setUserActive({ userId: second.user.id, active: true, actor: admin, now: new Date() });
    expect(await changeUserRole({ userId: admin.id, role: "LEAD", actor: { id: second.user.id, role: "ADMIN" } })).toEqual({
      from: "ADMIN",
      to: "LEAD",
    });
    expect(
      await refusalCode(changeUserRole({ userId: second.user.id, role: "REVIEWER", actor: { id: second.user.id, role: "ADMIN" } })),
    ).toBe("last_admin");
    await changeUserRole({ userId: admin.id, role: "ADMIN", actor: { id: second.user.id, role: "ADMIN" } });
  });

  it.skipIf(!process.env.DATABASE_URL)(
    "two admins removing each other at the same moment: one succeeds, the other is refused (PostgreSQL)",
    async () => {
      const a = await inviteUser({ email: "ida@people.test", role: "ADMIN", name: "Ida", actor: admin, now: new Date() });
      const b = await inviteUser({ email: "jo@people.test", role: "ADMIN", name: "Jo", actor: admin, now: new Date() });
      // Down to exactly two active admins, both able to sign in: a and b (set up directly: this is the
      // state, not the subject).
      await db().user.updateMany({ where: { role: "ADMIN", id: { notIn: [a.user.id, b.user.id] } }, data: { role: "LEAD" } });
      await db().user.updateMany({ where: { id: { in: [a.user.id, b.user.id] } }, data: { passwordPending: false } });
      expect(await db().user.count({ where: { role: "ADMIN", active: true } })).toBe(2);
      const second = openDb({ kind: "postgres", url: testDb().url!, max: 2 });
      try {
        const results = await Promise.all([
          refusalCode(setUserActive({ userId: b.user.id, active: false, actor: { id: a.user.id, role: "ADMIN" }, now: new Date() })),
          refusalCode(
            changeUserRole({ userId: a.user.id, role: "REVIEWER", actor: { id: b.user.id, role: "ADMIN" }, client: second.client }),
          ),
        ]);
        expect(results.sort()).toEqual(["accepted", "last_admin"]);
        expect(await db().user.count({ where: { role: "ADMIN", active: true } })).toBe(1);
      } finally {
        await second.close();
      }
    },
  );

  it("keeps the audit chain whole", async () => {
    const report = await verifyAuditChain(testDb().client, { publicKey: null });
    expect(report.problems).toEqual([]);
  });
});
