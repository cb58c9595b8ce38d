// Requiring sign-in through the identity provider: the admin's setting refuses every way it could
// lock all admins out, and while it holds, a right password signs in only the break-glass admin.
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { db } from "../db";
import { refusalCode } from "../../testing/refusals";
import { changeUserRole } from "./change-user-role";
import { verifySignIn } from "./credentials";
import { DEFAULT_SSO_POLICY, loadSsoPolicy, parseRoleMap } from "./oidc-settings";
import { setUserActive } from "./set-user-active";
import { signInWithOidc } from "./sign-in-with-oidc";
import { hashPassword } from "./password";
import type { TThrottleLimits } from "./throttle";
import { updateSsoPolicy } from "./update-sso-policy";

useTestDb();

const limits: TThrottleLimits = {
  maxFailures: 50,
  maxFailuresPerAddress: 500,
  windowMinutes: 15,
  accountDelayAfter: 60,
  accountDelayMaxSeconds: 5,
};
const PASSWORD = "correct horse battery staple";
const ids: Record<string, string> = {};

beforeAll(async () => {
  const passwordHash = await hashPassword(PASSWORD);
  for (const [key, data] of Object.entries({
    admin: { email: "keeper@example.test", name: "Keeper", role: "ADMIN" as const },
    other: { email: "other-admin@example.test", name: "Other", role: "ADMIN" as const },
    pending: { email: "pending-admin@example.test", name: "Pending", role: "ADMIN" as const, passwordPending: true },
    gone: { email: "gone-admin@example.test", name: "Gone", role: "ADMIN" as const, active: false },
    reviewer: { email: "rev@example.test", name: "Rev", role: "REVIEWER" as const },
  })) {
    ids[key] = (await db().user.create({ data: { ...data, passwordHash } })).id;
  }
});

const admin = () => ({ id: ids.admin!, role: "ADMIN" as const });
const requiring = (breakGlassUserId: string | null) => ({ ...DEFAULT_SSO_POLICY, requireSso: true, breakGlassUserId });

describe("updateSsoPolicy", () => {
  it("refuses to require SSO without a break-glass admin who can still sign in with a password", async () => {
    for (const keeper of [null, ids.reviewer!, ids.pending!, ids.gone!]) {
      await expect(updateSsoPolicy({ policy: requiring(keeper), actor: admin(), oidcConfigured: true })).rejects.toMatchObject({
        code: "break_glass_required",
        field: "breakGlassUserId",
      });
    }
    expect(await loadSsoPolicy()).toEqual(DEFAULT_SSO_POLICY);
  });

  it("refuses to require SSO when no provider is configured, and refuses a caller who is not an admin", async () => {
    await expect(updateSsoPolicy({ policy: requiring(ids.admin!), actor: admin(), oidcConfigured: false })).rejects.toMatchObject({
      code: "break_glass_required",
      field: "requireSso",
    });
    await expect(
      updateSsoPolicy({ policy: requiring(ids.admin!), actor: { id: ids.reviewer!, role: "REVIEWER" }, oidcConfigured: true }),
    ).rejects.toMatchObject({ code: "forbidden" });
    expect(await loadSsoPolicy()).toEqual(DEFAULT_SSO_POLICY);
  });

  it("while SSO is required, a right password signs in the break-glass admin only; a wrong one is still just wrong", async () => {
    await updateSsoPolicy({ policy: requiring(ids.admin!), actor: admin(), oidcConfigured: true });
    const event = await db().auditEvent.findFirst({ where: { action: "auth.sso_policy_changed" }, orderBy: { seq: "desc" } });
    expect(event).toMatchObject({ actorId: ids.admin, inputs: { requireSso: true, breakGlassUserId: ids.admin } });

    const now = new Date();
    const attempt = (email: string, password = PASSWORD) => verifySignIn({ email, password, address: "10.9.0.1", now, limits });
    expect(await attempt("keeper@example.test")).toMatchObject({ status: "ok" });
    expect(await attempt("other-admin@example.test")).toEqual({ status: "sso_required" });
    expect(await attempt("rev@example.test")).toEqual({ status: "sso_required" });
    // Not a hint that the account exists: without the password, the answer is the usual one.
    expect(await attempt("rev@example.test", "not the password")).toEqual({ status: "invalid" });

    await updateSsoPolicy({ policy: DEFAULT_SSO_POLICY, actor: admin(), oidcConfigured: true });
    expect(await attempt("rev@example.test")).toMatchObject({ status: "ok" });
  });

  it("keeps the break-glass admin an admin while SSO is required: not demoted, deactivated or lowered by the provider's groups", async () => {
    await updateSsoPolicy({ policy: requiring(ids.admin!), actor: admin(), oidcConfigured: true });
    const other = { id: ids.other!, role: "ADMIN" as const };
    // Another admin remains, so only the break-glass rule refuses these.
    expect(await refusalCode(changeUserRole({ userId: ids.admin!, role: "LEAD", actor: other }))).toBe("break_glass_admin");
    expect(await refusalCode(setUserActive({ userId: ids.admin!, active: false, actor: other, now: new Date() }))).toBe(
      "break_glass_admin",
    );
    // Signing in through the provider with groups that map to a reviewer leaves the role as it is.
    const connection = {
      issuer: "http://idp.example",
      clientId: "c",
      clientSecret: "s",
      name: "IdP",
      roleClaim: "groups",
      roleMap: parseRoleMap("staff=REVIEWER"),
    };
    const claims = { sub: "sub-keeper", email: "keeper@example.test", email_verified: true, groups: ["staff"] };
    expect(await signInWithOidc({ claims, connection, now: new Date() })).toMatchObject({ status: "ok", user: { role: "ADMIN" } });
    const keeper = await db().user.findUniqueOrThrow({ where: { id: ids.admin! } });
    expect(keeper).toMatchObject({ role: "ADMIN", active: true, oidcSubject: "sub-keeper" });

    // Someone else named break-glass: the first admin is an ordinary one again, the groups' role included.
    await updateSsoPolicy({ policy: requiring(ids.other!), actor: admin(), oidcConfigured: true });
    expect(await refusalCode(changeUserRole({ userId: ids.other!, role: "LEAD", actor: admin() }))).toBe("break_glass_admin");
    expect(await signInWithOidc({ claims, connection, now: new Date() })).toMatchObject({ status: "ok", user: { role: "REVIEWER" } });
    await updateSsoPolicy({ policy: DEFAULT_SSO_POLICY, actor: other, oidcConfigured: true });
    await changeUserRole({ userId: ids.admin!, role: "ADMIN", actor: other });
  });
});
