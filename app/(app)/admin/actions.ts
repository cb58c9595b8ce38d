"use server";
// The admin page's actions. Settings: every policy setting at once, as the form shows them; the domain
// function re-checks who may change each key, validates the whole, refuses a form opened before
// someone else's change (code \`stale\`) and the model planner as the default where no model is
// configured (\`planner_unavailable\`), and audits the change in the same transaction. Notifications:
// the webhook, its secret and the reminder's lead time, audited without the secret. People are
// managed on the Users page (users/actions.ts).
import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/auth/authed";
import { llmAvailability } from "@/lib/llm/provider";
import { updatePolicySettings } from "@/lib/policy/update-settings";
import { updateNotificationSettings } from "@/lib/policy/update-notification-settings";
import { ZPolicySettingsForm } from "./settings-fields";
import { ZNotificationSettingsForm } from "./notification-fields";

export const updatePolicySettingsAction = authedAction({ area: "admin", input: ZPolicySettingsForm }, async ({ input, user }) => {
  const result = await updatePolicySettings({
    changes: input.settings,
    expectedPolicyVersion: input.expectedPolicyVersion,
    actor: { id: user.id, role: user.role },
    modelPlanner: llmAvailability(),
  });
  if (result.changed.length) revalidatePath("/admin");
  return {
    policyVersion: result.policyVersion,
    changed: result.changed as string[],
    versionChanged: result.policyVersion !== result.policyVersionBefore,
  };
});

export const updateNotificationSettingsAction = authedAction(
  { area: "admin", input: ZNotificationSettingsForm },
  async ({ input, user }) => {
    const result = await updateNotificationSettings({ changes: input, actor: { id: user.id, role: user.role } });
    if (result.changed.length) revalidatePath("/admin");
    return { changed: result.changed as string[] };
  },
);
