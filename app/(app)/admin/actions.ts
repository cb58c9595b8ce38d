"use server";
// The admin page's actions. Settings: every policy setting at once, as the form shows them; the domain
// function re-checks who may change each key, validates the whole, refuses a form opened before
// someone else's change (code \`stale\`), and audits the change in the same transaction. Users: sign
// one out everywhere (their sessions revoked, audited).
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { authedAction } from "@/lib/auth/authed";
import { revokeUserSessions } from "@/lib/auth/revoke-user-sessions";
import { updatePolicySettings } from "@/lib/policy/update-settings";
import { ZPolicySettingsForm } from "./settings-fields";

export const updatePolicySettingsAction = authedAction({ area: "admin", input: ZPolicySettingsForm }, async ({ input, user }) => {
  const result = await updatePolicySettings({ changes: input.settings, expectedPolicyVersion: input.expectedPolicyVersion, actor: { id: user.id, role: user.role } });
  if (result.changed.length) revalidatePath("/admin");
  return { policyVersion: result.policyVersion, changed: result.changed as string[] };
});

/** Signs a user out everywhere: every live session revoked, audited with the admin's id. */
export const revokeUserSessionsAction = authedAction({ area: "admin", input: z.object({ userId: z.uuid() }) }, async ({ input, user }) => {
  const result = await revokeUserSessions({ userId: input.userId, actor: user, now: new Date() });
  revalidatePath("/admin");
  return result;
});
