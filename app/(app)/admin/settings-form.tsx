"use client";
import Link from "next/link";
import { SubmitRow } from "@/components/submit-row";
import { useActionState, useState } from "react";
import type { TActionResult } from "@/lib/auth/action-result";
import { formMessage, type TFormMessage } from "@/components/action-message";
import { updatePolicySettingsAction } from "./actions";
import { PLANNER_LABELS, SETTING_FIELDS, type TSettingName, type TSettingValues } from "./settings-fields";

type TState = TActionResult<{ policyVersion: string; changed: string[] }> | null;

const INPUT =
  "block h-8 w-full rounded-md border border-slate-300 bg-white px-2.5 text-[13px] text-slate-900 shadow-xs focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30 aria-[invalid=true]:border-red-500";

const LABEL_OF: Record<string, string> = Object.fromEntries(SETTING_FIELDS.map((f) => [f.key, f.label]));

function message(state: TState): TFormMessage | null {
  return formMessage(
    state,
    (ok) =>
      ok.changed.length
        ? { tone: "ok", text: `Saved: ${ok.changed.map((k) => (LABEL_OF[k] ?? k).toLowerCase()).join(", ")}. Policy version ${ok.policyVersion} is in force; approvals waiting under the previous version have gone stale.` }
        : { tone: "ok", text: "Nothing changed: the settings already had these values." },
    { forbidden: "Your role may not change policy settings.", invalid: "Nothing was saved: check the settings marked above.", fieldsShownBeside: true, signedOut: "Nothing was saved." },
  );
}

export function SettingsForm({ initial, policyVersion, lastChanged }: { initial: TSettingValues; policyVersion: string; lastChanged: Partial<Record<string, string>> }) {
  const [state, action, pending] = useActionState((_prev: TState, form: FormData) => updatePolicySettingsAction(form), null);
  // Controlled: a refused save keeps what was typed (React resets uncontrolled fields after an action).
  const [values, setValues] = useState(initial);
  const errors = state?.status === "invalid" ? state.fieldErrors : {};
  const shown = message(state);
  const set = (name: TSettingName) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => setValues((v) => ({ ...v, [name]: e.target.value }));

  return (
    <form action={action} noValidate aria-label="Policy settings" className="space-y-3">
      {/* The version this form shows: a save made after someone else's change is refused, not merged. */}
      <input type="hidden" name="policyVersion" value={policyVersion} />
      <div className="divide-y divide-slate-100">
        {SETTING_FIELDS.map((field) => {
          const id = `setting-${field.name}`;
          const error = errors[field.name];
          const described = [`${id}-help`, error?.length ? `${id}-error` : null].filter(Boolean).join(" ");
          const common = { id, name: field.name, value: values[field.name], onChange: set(field.name), "aria-invalid": error?.length ? true : undefined, "aria-describedby": described };
          return (
            <div key={field.key} className="grid grid-cols-1 gap-x-6 gap-y-1 py-3 sm:grid-cols-[minmax(0,1fr)_14rem]">
              <div className="min-w-0">
                <label htmlFor={id} className="block text-[13px] font-medium text-slate-900">
                  {field.label}
                </label>
                <p id={`${id}-help`} className="text-[12px] text-slate-500">
                  {field.help} <code className="font-mono text-[11px] text-slate-400">{field.key}</code>
                </p>
                <p className="text-[11px] text-slate-400">{lastChanged[field.key] ?? "Default value, never changed."}</p>
              </div>
              <div>
                {"readOnly" in field && field.readOnly ? (
                  <div className="relative">
                    {/* No name: shown for context, never submitted. */}
                    <input id={id} value={values[field.name]} readOnly aria-describedby={described} className={`${INPUT} bg-slate-50 pr-12 text-right tabular-nums text-slate-600`} />
                    <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 right-2.5 flex items-center text-[12px] text-slate-500">
                      USD
                    </span>
                    <Link href="/autonomy" className="mt-1 inline-block text-[12px] font-medium text-indigo-700 hover:underline">
                      Move the dial on the Autonomy page
                    </Link>
                  </div>
                ) : field.kind === "planner" ? (
                  <select {...common} className={INPUT}>
                    {Object.entries(PLANNER_LABELS).map(([value, label]) => (
                      <option key={value} value={value}>
                        {label}
                      </option>
                    ))}
                  </select>
                ) : field.kind === "usd" ? (
                  <div className="relative">
                    <input {...common} inputMode="decimal" autoComplete="off" spellCheck={false} className={`${INPUT} pr-12 text-right tabular-nums`} />
                    <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 right-2.5 flex items-center text-[12px] text-slate-500">
                      USD
                    </span>
                  </div>
                ) : (
                  <input {...common} inputMode="numeric" autoComplete="off" className={`${INPUT} text-right tabular-nums`} />
                )}
                {error?.length ? (
                  <p id={`${id}-error`} className="mt-1 text-[12px] text-red-700">
                    {error.join(" ")}
                  </p>
                ) : null}
              </div>
            </div>
          );
        })}
      </div>
      <SubmitRow pending={pending} label="Save settings" busyLabel="Saving…" testId="settings-message" tone={shown?.tone === "error" ? "error" : "ok"}>
        {shown?.text}
      </SubmitRow>
    </form>
  );
}
