// Changes the notification settings: validated as a whole, written with its audit event
// (`settings.changed`) in one transaction. The audit event names the URL and the secret only by
// origin and fingerprint: the trail is read by leads, and a webhook URL or secret read there could
// post or forge notifications. A submission that changes nothing writes nothing. A webhook URL is
// refused when it points inside (lib/policy/webhook-target.ts): loopback, the private network, the app.
// The URL and the secret are written encrypted (secret-settings.ts).
import { mayUse, type Role } from "../contracts/roles";
import { AppError } from "../contracts/app-error";
import { db, toJson } from "../db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { checkWebhookTarget } from "./webhook-target";
import {
  describeNotificationSettings,
  loadStoredNotificationSettings,
  NOTIFICATION_SETTING_KEYS,
  NOTIFY_LEAD_KEY,
  NOTIFY_SECRET_KEY,
  NOTIFY_URL_KEY,
  storedNotificationValue,
  ZNotificationSettings,
  ZWebhookUrl,
  type TNotificationSettings,
} from "./notification-settings";

// The settings' advisory lock (update-settings.ts takes (ns, 0)): notification changes serialise
// among themselves.
const SETTINGS_LOCK_NAMESPACE = 0x73657474; // "sett"

export interface TNotificationChanges {
  /** A new URL; "" stops notifications. Absent: kept. */
  webhookUrl?: string;
  /** A new secret. Absent: kept (the page never has the old one to send back). */
  webhookSecret?: string;
  reminderLeadMinutes?: number;
}

export async function updateNotificationSettings(input: { changes: TNotificationChanges; actor: { id: string; role: Role } }) {
  if (!mayUse(input.actor.role, "admin"))
    throw new AppError("forbidden", `A ${input.actor.role.toLowerCase()} may not change the notification settings.`);
  const { webhookUrl, webhookSecret, reminderLeadMinutes } = input.changes;
  // Resolved before the transaction (a slow name server holds no lock); delivery checks again.
  if (webhookUrl && ZWebhookUrl.safeParse(webhookUrl).success) {
    const verdict = await checkWebhookTarget(webhookUrl);
    if (!verdict.ok && !verdict.unresolved) throw new AppError("invalid", `${NOTIFY_URL_KEY}: ${verdict.why}`, FIELD_OF[NOTIFY_URL_KEY]);
  }
  return db().$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SETTINGS_LOCK_NAMESPACE}::int, 1)`;
    const { settings: before, plain } = await loadStoredNotificationSettings(tx);
    const parsed = ZNotificationSettings.safeParse({
      ...before,
      ...(webhookUrl !== undefined ? { [NOTIFY_URL_KEY]: webhookUrl } : {}),
      ...(webhookSecret !== undefined ? { [NOTIFY_SECRET_KEY]: webhookSecret } : {}),
      ...(reminderLeadMinutes !== undefined ? { [NOTIFY_LEAD_KEY]: reminderLeadMinutes } : {}),
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new AppError(
        "invalid",
        `${issue.path.join(".")}: ${issue.message}`,
        FIELD_OF[String(issue.path[0]) as keyof TNotificationSettings],
      );
    }
    const after = parsed.data;
    const changed = NOTIFICATION_SETTING_KEYS.filter((k) => before[k] !== after[k]);
    const described = { before: describeNotificationSettings(before), after: describeNotificationSettings(after) };
    if (changed.length === 0) return { changed, settings: described.after };
    await recordAuditEvent(tx, {
      actorType: "user",
      actorId: input.actor.id,
      action: "settings.changed",
      subjectType: "settings",
      subjectId: changed.join(","),
      inputs: described,
    });
    // A secret still stored in plain text (from before encryption) is written encrypted with this
    // change, whether or not it changed itself.
    for (const key of new Set([...changed, ...plain])) {
      const value = toJson(storedNotificationValue(key, after[key]));
      await tx.setting.upsert({
        where: { key },
        create: { key, value, updatedById: input.actor.id },
        update: { value, updatedById: input.actor.id },
      });
    }
    return { changed, settings: described.after };
  });
}

/** The form field a refusal belongs to. */
const FIELD_OF: Record<keyof TNotificationSettings, string> = {
  [NOTIFY_URL_KEY]: "webhookUrl",
  [NOTIFY_SECRET_KEY]: "webhookSecret",
  [NOTIFY_LEAD_KEY]: "reminderLeadMinutes",
};
