// Notification settings: where the approval notifications go (a Slack-compatible incoming webhook),
// the secret that signs them (Standard Webhooks) and how long before a request's expiry the reminder
// is sent. Stored as Setting rows beside the policy settings, but kept apart from them: they decide
// no refund (changing one stales no approval, they are not in policyVersion()), and the secret must
// never travel with the policy settings into a run, a page or an audit event. The URL and the secret
// are stored encrypted (secret-settings.ts).
import { z } from "zod";
import { plainText } from "../contracts/text";
import { db as defaultDb, type Db, type DbTx } from "../db";
import { sha256Hex } from "../contracts/canonical";
import { isSealed, openSetting, sealSetting } from "./secret-settings";

export const NOTIFY_URL_KEY = "notify.webhookUrl";
export const NOTIFY_SECRET_KEY = "notify.webhookSecret";
export const NOTIFY_LEAD_KEY = "notify.reminderLeadMinutes";

/** The reminder's lead time may be at most a day: a request waits 72 hours (APPROVAL_TTL_MS). */
export const MAX_REMINDER_LEAD_MINUTES = 24 * 60;

export const ZWebhookUrl = z.union([
  z.literal(""),
  // WHATWG URL parsing drops leading and trailing control characters: refused before it can.
  plainText(
    z
      .url({ message: "must be an http(s) URL" })
      .max(2000)
      .regex(/^https?:\/\//i, "must be an http(s) URL"),
  ),
]);
/** A `whsec_…` secret (base64 after the prefix) or any other of 32 characters or more, as for intake. */
const ZWebhookSecret = z.union([
  z.literal(""),
  plainText(z.string().min(32, "must be at least 32 characters (try: openssl rand -base64 32)").max(200)),
]);

export const ZNotificationSettings = z
  .strictObject({
    /** Where notifications are posted; empty: none are sent (and none enqueued). */
    [NOTIFY_URL_KEY]: ZWebhookUrl,
    /** Signs every delivery (webhook-signature); required while a URL is set. Never shown back. */
    [NOTIFY_SECRET_KEY]: ZWebhookSecret,
    /** How long before a pending request expires its reminder is sent. */
    [NOTIFY_LEAD_KEY]: z.number().int().min(1).max(MAX_REMINDER_LEAD_MINUTES),
  })
  .refine((s) => s[NOTIFY_URL_KEY] === "" || s[NOTIFY_SECRET_KEY] !== "", {
    message: "a webhook URL needs a signing secret",
    path: [NOTIFY_SECRET_KEY],
  });
export type TNotificationSettings = z.infer<typeof ZNotificationSettings>;

export const DEFAULT_NOTIFICATION_SETTINGS: TNotificationSettings = {
  [NOTIFY_URL_KEY]: "",
  [NOTIFY_SECRET_KEY]: "",
  [NOTIFY_LEAD_KEY]: 60,
};

export const NOTIFICATION_SETTING_KEYS = Object.keys(DEFAULT_NOTIFICATION_SETTINGS) as (keyof TNotificationSettings)[];

/** The settings stored encrypted (secret-settings.ts): the URL carries its token, the secret signs. */
export const SECRET_NOTIFICATION_KEYS: readonly string[] = [NOTIFY_URL_KEY, NOTIFY_SECRET_KEY];

/** The notification settings in force, secret included: for the sender and the sweep only. */
export async function loadNotificationSettings(client: Db | DbTx = defaultDb()): Promise<TNotificationSettings> {
  return (await loadStoredNotificationSettings(client)).settings;
}

/** The settings in force, and which secret ones are still stored in plain text (written before encryption). */
export async function loadStoredNotificationSettings(client: Db | DbTx = defaultDb()) {
  const rows = await client.setting.findMany({ where: { key: { in: NOTIFICATION_SETTING_KEYS } } });
  const plain: string[] = [];
  const values = rows.map((r) => {
    if (!SECRET_NOTIFICATION_KEYS.includes(r.key) || typeof r.value !== "string") return [r.key, r.value] as const;
    if (r.value !== "" && !isSealed(r.value)) plain.push(r.key);
    return [r.key, openSetting(r.key, r.value)] as const;
  });
  return {
    settings: ZNotificationSettings.parse({ ...DEFAULT_NOTIFICATION_SETTINGS, ...Object.fromEntries(values) }),
    plain: plain as (keyof TNotificationSettings)[],
  };
}

/** A setting's value as it is written: the secret ones encrypted. */
export function storedNotificationValue(key: keyof TNotificationSettings, value: TNotificationSettings[typeof key]) {
  return SECRET_NOTIFICATION_KEYS.includes(key) && typeof value === "string" ? sealSetting(key, value) : value;
}

/** A short one-way name for a secret or a URL: enough to tell two apart, nothing to sign with. */
export function notificationFingerprint(value: string): string {
  return sha256Hex(`countersign-notify\n${value}`).slice(0, 12);
}

/**
 * What a page and the audit trail may show: the URL's origin and fingerprint (an incoming webhook's
 * URL is itself a credential: Slack's carries its token in the path), and whether a secret is set,
 * by its fingerprint.
 */
export function describeNotificationSettings(s: TNotificationSettings) {
  const url = s[NOTIFY_URL_KEY];
  const secret = s[NOTIFY_SECRET_KEY];
  return {
    webhook: url ? { origin: new URL(url).origin, fingerprint: notificationFingerprint(url) } : null,
    secret: secret ? { fingerprint: notificationFingerprint(secret) } : null,
    reminderLeadMinutes: s[NOTIFY_LEAD_KEY],
  };
}

/** SQL: whether a webhook URL is configured (a job is enqueued only then). */
export const WEBHOOK_CONFIGURED_SQL = `EXISTS (SELECT 1 FROM "Setting" WHERE "key" = '${NOTIFY_URL_KEY}' AND "value" #>> '{}' <> '')`;
