"use client";
import Link from "next/link";
import { SubmitRow } from "@/components/submit-row";
import { useActionState, useLayoutEffect, useRef, useState } from "react";
import type { TActionResult } from "@/lib/auth/action-result";
import type { TErrorCode } from "@/lib/contracts/app-error";
import { formMessage, type TFormMessage } from "@/components/action-message";
import { ROLE_LABELS, ROLES } from "@/lib/contracts/roles";
import { updatePolicySettingsAction } from "./actions";
import {
  PLANNER_LABELS,
  plannerOptionLabel,
  SETTING_FIELDS,
  type TModelPlannerState,
  type TSettingName,
  type TSettingValues,
} from "./settings-fields";

type TState = TActionResult<{ policyVersion: string; changed: string[]; versionChanged: boolean }> | null;

/** Refusals about one setting: their message is shown beside its field, like an invalid value's. */
const FIELD_OF_REFUSAL: Partial<Record<TErrorCode, TSettingName>> = { planner_unavailable: "defaultPlanner" };

function fieldErrors(state: TState): Partial<Record<string, string[]>> {
  if (state?.status === "invalid") return state.fieldErrors;
  const field = state?.status === "error" ? FIELD_OF_REFUSAL[state.code] : undefined;
  return field && state?.status === "error" ? { [field]: [state.message] } : {};
}

const INPUT =
  "block h-8 w-full rounded-md border border-slate-300 bg-white px-2.5 text-[13px] text-slate-900 shadow-xs focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30 aria-[invalid=true]:border-red-500";

const LABEL_OF: Record<string, string> = Object.fromEntries(SETTING_FIELDS.map((f) => [f.key, f.label]));

/** A label inside a sentence: its first letter lowered, unless it starts with an abbreviation (SLA). */
const inSentence = (label: string) => (/^[A-Z]{2}/.test(label) ? label : label.charAt(0).toLowerCase() + label.slice(1));

function saved(ok: { policyVersion: string; changed: string[]; versionChanged: boolean }): TFormMessage {
  if (!ok.changed.length) return { tone: "ok", text: "Nothing changed: the settings already had these values." };
  const what = `Saved: ${ok.changed.map((k) => inSentence(LABEL_OF[k] ?? k)).join(", ")}.`;
  return ok.versionChanged
    ? {
        tone: "ok",
        text: `${what} Policy version ${ok.policyVersion} is in force; approvals waiting under the previous version have gone stale.`,
      }
    : { tone: "ok", text: `${what} Policy version ${ok.policyVersion} stays in force: no waiting approval went stale.` };
}

function message(state: TState): TFormMessage | null {
  if (state?.status === "error" && FIELD_OF_REFUSAL[state.code])
    return { tone: "error", text: "Nothing was saved: check the settings marked above." };
  return formMessage(state, saved, {
    forbidden: "Your role may not change policy settings.",
    invalid: "Nothing was saved: check the settings marked above.",
    fieldsShownBeside: true,
    signedOut: "Nothing was saved.",
  });
}

const ROLE_OPTIONS = ROLES.map((value) => ({ value, label: ROLE_LABELS[value] }));
const plannerOptions = (model: TModelPlannerState) =>
  (Object.keys(PLANNER_LABELS) as (keyof typeof PLANNER_LABELS)[]).map((value) => ({ value, label: plannerOptionLabel(value, model) }));

function ChoiceSelect({
  common,
  options,
}: {
  common: React.ComponentProps<"select">;
  options: readonly { value: string; label: string }[];
}) {
  const ref = useRef<HTMLSelectElement>(null);
  // React keeps a controlled input's default in step with its value, so the form's reset after an
  // action leaves what was typed; not a select's. Without this a refused choice would jump back to the
  // stored one while the error beside it still speaks of it.
  useLayoutEffect(() => {
    for (const option of ref.current?.options ?? []) option.defaultSelected = option.value === common.value;
  }, [common.value]);
  return (
    <select {...common} ref={ref} className={INPUT}>
      {options.map(({ value, label }) => (
        <option key={value} value={value}>
          {label}
        </option>
      ))}
    </select>
  );
}

export function SettingsForm(props: {
  initial: TSettingValues;
  policyVersion: string;
  lastChanged: Partial<Record<string, string>>;
  model: TModelPlannerState;
  /** The settings that decide no refund: changing one keeps the policy version. */
  keepsVersion: readonly string[];
}) {
  const { initial, policyVersion, lastChanged, model } = props;
  const [state, action, pending] = useActionState((_prev: TState, form: FormData) => updatePolicySettingsAction(form), null);
  // Controlled: a refused save keeps what was typed (React resets uncontrolled fields after an action).
  const [values, setValues] = useState(initial);
  const errors = fieldErrors(state);
  const shown = message(state);
  const set = (name: TSettingName) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
    setValues((v) => ({ ...v, [name]: e.target.value }));

  return (
    <form action={action} noValidate aria-label="Policy settings" className="space-y-3">
      {/* The version this form shows: a save made after someone else's change is refused, not merged. */}
      <input type="hidden" name="policyVersion" value={policyVersion} />
      <div className="divide-y divide-slate-100">
        {SETTING_FIELDS.map((field) => {
          const id = `setting-${field.name}`;
          const error = errors[field.name];
          // Why the model planner cannot run here, until a refusal says it beside the field instead.
          const unavailable = field.kind === "planner" && !model.available && !error?.length ? model.reason : null;
          const described = [`${id}-help`, error?.length ? `${id}-error` : null, unavailable ? `${id}-unavailable` : null]
            .filter(Boolean)
            .join(" ");
          const common = {
            id,
            name: field.name,
            value: values[field.name],
            onChange: set(field.name),
            "aria-invalid": error?.length ? true : undefined,
            "aria-describedby": described,
          };
          return (
            <div key={field.key} className="grid grid-cols-1 gap-x-6 gap-y-1 py-3 sm:grid-cols-[minmax(0,1fr)_14rem]">
              <div className="min-w-0">
                <label htmlFor={id} className="block text-[13px] font-medium text-slate-900">
                  {field.label}
                </label>
                <p id={`${id}-help`} className="text-[12px] text-slate-500">
                  {field.help}
                  {props.keepsVersion.includes(field.key) ? " It decides no refund: changing it makes no approval stale." : null}{" "}
                  <code className="font-mono text-[11px] text-slate-400">{field.key}</code>
                </p>
                <p className="text-[11px] text-slate-400">{lastChanged[field.key] ?? "Default value, never changed."}</p>
              </div>
              <div>
                {"readOnly" in field && field.readOnly ? (
                  <div className="relative">
                    {/* No name: shown for context, never submitted. */}
                    <input
                      id={id}
                      value={values[field.name]}
                      readOnly
                      aria-describedby={described}
                      className={`${INPUT} bg-slate-50 pr-12 text-right tabular-nums text-slate-600`}
                    />
                    <span
                      aria-hidden="true"
                      className="pointer-events-none absolute inset-y-0 right-2.5 flex items-center text-[12px] text-slate-500"
                    >
                      USD
                    </span>
                    <Link href="/autonomy" className="mt-1 inline-block text-[12px] font-medium text-indigo-700 hover:underline">
                      Move the dial on the Autonomy page
                    </Link>
                  </div>
                ) : field.kind === "planner" || field.kind === "role" ? (
                  <ChoiceSelect common={common} options={field.kind === "role" ? ROLE_OPTIONS : plannerOptions(model)} />
                ) : field.kind === "usd" ? (
                  <div className="relative">
                    <input
                      {...common}
                      inputMode="decimal"
                      autoComplete="off"
                      spellCheck={false}
                      className={`${INPUT} pr-12 text-right tabular-nums`}
                    />
                    <span
                      aria-hidden="true"
                      className="pointer-events-none absolute inset-y-0 right-2.5 flex items-center text-[12px] text-slate-500"
                    >
                      USD
                    </span>
                  </div>
                ) : (
                  <input {...common} inputMode="numeric" autoComplete="off" className={`${INPUT} text-right tabular-nums`} />
                )}
                {unavailable ? (
                  <p id={`${id}-unavailable`} className="mt-1 text-[12px] text-slate-500">
                    The model planner is unavailable here. {unavailable}
                  </p>
                ) : null}
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
      <SubmitRow
        pending={pending}
        label="Save settings"
        busyLabel="Saving…"
        testId="settings-message"
        tone={shown?.tone === "error" ? "error" : "ok"}
      >
        {shown?.text}
      </SubmitRow>
    </form>
  );
}
