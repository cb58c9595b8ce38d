"use client";
import { useActionState, useState } from "react";
import { SubmitRow } from "@/components/submit-row";
import type { TActionResult } from "@/lib/auth/action-result";
import { formMessage } from "@/components/action-message";
import { updateNotificationSettingsAction } from "./actions";

type TState = TActionResult<{ changed: string[] }> | null;

const INPUT =
  "block h-8 w-full min-w-0 rounded-md border border-slate-300 bg-white px-2.5 text-[13px] text-slate-900 shadow-xs focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30 aria-[invalid=true]:border-red-500";

export interface TNotificationView {
  webhook: { origin: string; fingerprint: string } | null;
  secret: { fingerprint: string } | null;
  reminderLeadMinutes: number;
}

const WORDS: Record<string, string> = {
  "notify.webhookUrl": "webhook URL",
  "notify.webhookSecret": "signing secret",
  "notify.reminderLeadMinutes": "reminder lead time",
};

/** The notification settings. The URL and the secret are write-only here: the page shows only what
 * identifies them (origin, fingerprints), and a field left empty keeps what is set. */
export function NotificationForm({ current, lastChanged }: { current: TNotificationView; lastChanged: Partial<Record<string, string>> }) {
  // Controlled: a refused save keeps what was typed; a saved URL and secret leave the page at once.
  const [url, setUrl] = useState("");
  const [secret, setSecret] = useState("");
  const [lead, setLead] = useState(String(current.reminderLeadMinutes));
  const [state, action, pending] = useActionState(async (_prev: TState, form: FormData) => {
    const result = await updateNotificationSettingsAction(form);
    if (result.status === "ok") {
      setUrl("");
      setSecret("");
    }
    return result;
  }, null);
  const errors = state?.status === "invalid" ? state.fieldErrors : {};
  const shown = formMessage(
    state,
    (ok) => ({ tone: "ok", text: ok.changed.length ? `Saved: ${ok.changed.map((k) => WORDS[k] ?? k).join(", ")}.` : "Nothing changed." }),
    {
      forbidden: "Your role may not change the notification settings.",
      invalid: "Nothing was saved: check the fields marked above.",
      fieldsShownBeside: true,
      signedOut: "Nothing was saved.",
    },
  );
  const described = (id: string, help: string) => [help, errors[id]?.length ? `${id}-error` : null].filter(Boolean).join(" ");
  const error = (id: string) =>
    errors[id]?.length ? (
      <p id={`${id}-error`} className="mt-1 text-[12px] text-red-700">
        {errors[id]!.join(" ")}
      </p>
    ) : null;

  return (
    <form action={action} noValidate aria-label="Notifications" className="space-y-3 text-[13px]">
      <div className="space-y-1">
        <label htmlFor="notify-webhookUrl" className="block font-medium text-slate-900">
          Webhook URL
        </label>
        <p id="notify-webhookUrl-help" className="text-[12px] text-slate-500">
          {current.webhook ? (
            <>
              Sending to <span className="font-mono text-slate-700">{current.webhook.origin}</span> (URL fingerprint{" "}
              <code className="font-mono">{current.webhook.fingerprint}</code>). Leave empty to keep it.
            </>
          ) : (
            "Off: no URL set, nothing is sent. A Slack incoming webhook, or any receiver of the same JSON."
          )}{" "}
          <span className="text-slate-400">{lastChanged["notify.webhookUrl"] ?? ""}</span>
        </p>
        <input
          id="notify-webhookUrl"
          name="webhookUrl"
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="https://hooks.slack.com/services/…"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          aria-invalid={errors.webhookUrl?.length ? true : undefined}
          aria-describedby={described("webhookUrl", "notify-webhookUrl-help")}
          className={INPUT}
        />
        {error("webhookUrl")}
        {current.webhook ? (
          <label className="flex items-center gap-2 pt-1 text-[12px] text-slate-700">
            <input type="checkbox" name="stopNotifications" className="h-4 w-4 rounded border-slate-300" />
            Stop notifications (forget the URL)
          </label>
        ) : null}
      </div>

      <div className="space-y-1">
        <label htmlFor="notify-webhookSecret" className="block font-medium text-slate-900">
          Signing secret
        </label>
        <p id="notify-webhookSecret-help" className="text-[12px] text-slate-500">
          {current.secret ? (
            <>
              Set (fingerprint <code className="font-mono">{current.secret.fingerprint}</code>); it is never shown again. Leave empty to
              keep it.
            </>
          ) : (
            "Not set. Needed with a URL: every message is signed with it (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature)."
          )}{" "}
          At least 32 characters, or a <code className="font-mono">whsec_…</code> secret.
        </p>
        <input
          id="notify-webhookSecret"
          name="webhookSecret"
          type="password"
          autoComplete="new-password"
          value={secret}
          onChange={(e) => setSecret(e.target.value)}
          spellCheck={false}
          aria-invalid={errors.webhookSecret?.length ? true : undefined}
          aria-describedby={described("webhookSecret", "notify-webhookSecret-help")}
          className={INPUT}
        />
        {error("webhookSecret")}
      </div>

      <div className="space-y-1">
        <label htmlFor="notify-reminderLeadMinutes" className="block font-medium text-slate-900">
          Reminder before expiry, in minutes
        </label>
        <p id="notify-reminderLeadMinutes-help" className="text-[12px] text-slate-500">
          A request still waiting this long before it expires is announced once more.{" "}
          <code className="font-mono text-[11px] text-slate-400">notify.reminderLeadMinutes</code>
        </p>
        <input
          id="notify-reminderLeadMinutes"
          name="reminderLeadMinutes"
          inputMode="numeric"
          autoComplete="off"
          value={lead}
          onChange={(e) => setLead(e.target.value)}
          aria-invalid={errors.reminderLeadMinutes?.length ? true : undefined}
          aria-describedby={described("reminderLeadMinutes", "notify-reminderLeadMinutes-help")}
          className={`${INPUT} max-w-[8rem] text-right tabular-nums`}
        />
        {error("reminderLeadMinutes")}
      </div>

      <SubmitRow
        pending={pending}
        label="Save notifications"
        busyLabel="Saving…"
        testId="notification-message"
        tone={shown?.tone === "error" ? "error" : "ok"}
      >
        {shown?.text}
      </SubmitRow>
    </form>
  );
}
