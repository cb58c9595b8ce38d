// The notification settings as the admin form sends them. The URL and the secret are never sent back
// to the browser (the page shows the URL's origin and the secret's fingerprint), so an empty field
// keeps what is set; "stop" forgets the URL, which turns notifications off.
import { z } from "zod";
import { plainText } from "@/lib/contracts/text";
import type { TNotificationChanges } from "@/lib/policy/update-notification-settings";

// Reaches the browser: no `new Function` probe under the CSP (see settings-fields.ts).
if (typeof window !== "undefined") z.config({ jitless: true });

const kept = (value: string) => (value === "" ? undefined : value);

/** MAX_REMINDER_LEAD_MINUTES (lib/policy/notification-settings.ts, which the browser cannot load): the
 * domain holds the same bound again. */
const MAX_LEAD_MINUTES = 24 * 60;

export const ZNotificationSettingsForm = z
  .object({
    webhookUrl: plainText(
      z
        .string()
        .trim()
        .max(2000, "At most 2000 characters.")
        .refine(
          (v) => v === "" || (/^https?:\/\//i.test(v) && URL.canParse(v)),
          "Enter an http(s) URL, like https://hooks.slack.com/services/…",
        ),
      { label: "The URL" },
    ),
    stopNotifications: z.literal("on").optional(),
    webhookSecret: plainText(
      z
        .string()
        .trim()
        .refine((v) => v === "" || v.length >= 32, "At least 32 characters (try: openssl rand -base64 32).")
        .refine((v) => v.length <= 200, "At most 200 characters."),
      { label: "The secret" },
    ),
    reminderLeadMinutes: z
      .string()
      .trim()
      .regex(/^\d{1,5}$/, "Enter a whole number of minutes.")
      .transform(Number)
      .refine((n) => n >= 1 && n <= MAX_LEAD_MINUTES, `From 1 to ${MAX_LEAD_MINUTES} minutes (a day).`),
  })
  .transform((form): TNotificationChanges => ({
    webhookUrl: form.stopNotifications ? "" : kept(form.webhookUrl),
    webhookSecret: kept(form.webhookSecret),
    reminderLeadMinutes: form.reminderLeadMinutes,
  }));
