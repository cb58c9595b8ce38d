// An admin sets how people sign in through the identity provider. Requiring it for everyone is
// refused unless the provider is configured and one break-glass admin is named who can still sign in
// with a password (active, an admin, a password set): the setting cannot lock every admin out.
import "server-only";
import { recordAuditEvent } from "../audit/record-audit-event";
import { AppError } from "../contracts/app-error";
import { mayUse, type Role } from "../contracts/roles";
import { db as defaultDb, type Db } from "../db";
import { invalidUserInput } from "./add-user";
import { SSO_POLICY_KEY, ZSsoPolicy, type TSsoPolicy } from "./oidc-settings";

export async function updateSsoPolicy(input: {
  policy: TSsoPolicy;
  actor: { id: string; role: Role };
  /** Whether OpenID Connect is configured on this deployment (oidcConnection(env()) is not null). */
  oidcConfigured: boolean;
  client?: Db;
}): Promise<TSsoPolicy> {
  if (!mayUse(input.actor.role, "admin")) throw new AppError("forbidden", "Only an admin may change how people sign in.");
  const parsed = ZSsoPolicy.safeParse(input.policy);
  if (!parsed.success) throw invalidUserInput(String(parsed.error.issues[0]!.path[0]), parsed.error.issues[0]!.message);
  const policy = parsed.data;
  if (policy.requireSso && !input.oidcConfigured) {
    throw new AppError("break_glass_required", "No identity provider is configured (OIDC_ISSUER): nobody could sign in.", "requireSso");
  }
  const client = input.client ?? defaultDb();
  return client.$transaction(async (tx) => {
    if (policy.requireSso) {
      // The active admins' rows, locked as a demotion or deactivation locks them (admin-remains.ts):
      // the break-glass admin cannot stop being one between this check and the commit.
      const admins = await tx.$queryRaw<{ id: string; canSignIn: boolean }[]>`
        SELECT "id"::text, NOT "passwordPending" AS "canSignIn" FROM "User" WHERE "role" = 'ADMIN' AND "active" ORDER BY "id" FOR UPDATE`;
      if (!admins.some((a) => a.id === policy.breakGlassUserId && a.canSignIn)) {
        throw new AppError(
          "break_glass_required",
          "Name an active admin with a password set as the break-glass admin, who can still sign in if the provider fails.",
          "breakGlassUserId",
        );
      }
    }
    await tx.setting.upsert({
      where: { key: SSO_POLICY_KEY },
      create: { key: SSO_POLICY_KEY, value: policy, updatedById: input.actor.id },
      update: { value: policy, updatedById: input.actor.id },
    });
    await recordAuditEvent(tx, {
      actorType: "user",
      actorId: input.actor.id,
      action: "auth.sso_policy_changed",
      subjectType: "settings",
      subjectId: SSO_POLICY_KEY,
      inputs: { ...policy },
    });
    return policy;
  });
}
