"use server";
// The admin page's actions. Settings: every policy setting at once, as the form shows them; the domain
// function re-checks who may change each key, validates the whole, refuses a form opened before
// someone else's change (code \`stale\`) and the model planner as the default where no model is
// configured (\`planner_unavailable\`), and audits the change in the same transaction. Notifications:
// the webhook, its secret and the reminder's lead time, audited without the secret. People are
// managed on the Users page (users/actions.ts). Erasure: a customer's personal data, by their id; the
// domain function re-checks the admin and refuses it with a refund in flight or under a legal hold.
// A customer's legal hold (placed or lifted) and their data export (requested; downloaded once from
// /api/admin/exports/[id]), each re-checked and audited by its domain function.
import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/auth/authed";
import { llmAvailability } from "@/lib/llm/provider";
import { updatePolicySettings } from "@/lib/policy/update-settings";
import { updateNotificationSettings } from "@/lib/policy/update-notification-settings";
import { ZPolicySettingsForm } from "./settings-fields";
import { ZNotificationSettingsForm } from "./notification-fields";
import { z } from "zod";
import { plainText } from "@/lib/contracts/text";
import { eraseCustomer } from "@/lib/privacy/erase-customer";
import { setLegalHold } from "@/lib/privacy/legal-hold";
import { requestSubjectExport } from "@/lib/privacy/export-subject";

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

export const eraseCustomerAction = authedAction(
  {
    area: "admin",
    input: z.object({
      customerId: plainText(z.string().trim().min(1, "Enter the customer's id.").max(64)),
      confirm: z.literal("on", { message: "Confirm that the erasure cannot be undone." }),
    }),
  },
  async ({ input, user }) => {
    const erased = await eraseCustomer({ customerId: input.customerId, actor: { type: "user", id: user.id, role: user.role } });
    return { customerId: erased.customerId, erasedNow: erased.erasedNow, tickets: erased.tickets };
  },
);

const ZCustomerId = plainText(z.string().trim().min(1, "Enter the customer's id.").max(64));

export const setLegalHoldAction = authedAction(
  {
    area: "admin",
    input: z.object({ customerId: ZCustomerId, hold: z.enum(["place", "lift"], { message: "Choose to place or lift the hold." }) }),
  },
  async ({ input, user }) => {
    const hold = input.hold === "place";
    const { changed } = await setLegalHold({ subject: { customerId: input.customerId }, hold, actor: { id: user.id, role: user.role } });
    return { customerId: input.customerId, hold, changed };
  },
);

export const requestExportAction = authedAction(
  { area: "admin", input: z.object({ customerId: ZCustomerId }) },
  async ({ input, user }) => {
    const { exportId } = await requestSubjectExport({ customerId: input.customerId, actor: { id: user.id, role: user.role } });
    revalidatePath("/admin");
    return { customerId: input.customerId, exportId };
  },
);
