"use server";
// The admin page's action: every policy setting at once, as the form shows them. The domain function
// re-checks who may change each key, validates the whole, refuses a form opened before someone
// else's change, and audits the change in the same transaction.
import { revalidatePath } from "next/cache";
import { ActionError, authedAction } from "@/lib/auth/authed";
import { SettingsError, updatePolicySettings } from "@/lib/policy/update-settings";
import { ZPolicySettingsForm } from "./settings-fields";

const HTTP: Record<SettingsError["code"], number> = { forbidden: 403, invalid: 400, stale: 409, insufficient_evidence: 409 };

export const updatePolicySettingsAction = authedAction({ area: "admin", input: ZPolicySettingsForm }, async ({ input, user }) => {
  try {
    const result = await updatePolicySettings({ changes: input.settings, expectedPolicyVersion: input.expectedPolicyVersion, actor: { id: user.id, role: user.role } });
    if (result.changed.length) revalidatePath("/admin");
    return { policyVersion: result.policyVersion, changed: result.changed as string[] };
  } catch (error) {
    if (error instanceof SettingsError) {
      const message =
        error.code === "stale"
          ? "Someone changed the settings after you opened this page, so nothing was saved. Reload the page to see the settings in force, then make your change again."
          : error.message;
      throw new ActionError(message, error.code, HTTP[error.code]);
    }
    throw error;
  }
});
