"use client";
import { useActionState } from "react";
import type { TActionResult } from "@/lib/auth/action-result";
import { formMessage, type TFormMessage } from "@/components/action-message";
import { SERIES, SERIES_KEYS, type TSeriesKey } from "@/lib/contracts/daily-series";
import { setSeriesThresholdsAction } from "../actions";
import { fieldUnit, thresholdText } from "./threshold-fields";

type TState = TActionResult<{ thresholds: number; changed: boolean }> | null;

const UNIT_WORDS = { count: "a day", percent: "%", minutes: "minutes", usd: "USD" } as const;

function message(state: TState): TFormMessage | null {
  return formMessage(
    state,
    (ok) =>
      ok.changed
        ? {
            tone: "ok",
            text: `Saved: ${ok.thresholds} ${ok.thresholds === 1 ? "series has" : "series have"} a threshold. The change is recorded in the audit trail.`,
          }
        : { tone: "ok", text: "Nothing changed." },
    { forbidden: "Your role may not change the thresholds.", invalid: "A threshold is a number of 0 or more, or empty." },
  );
}

/** A threshold per series: a day past it raises one alert through the notification webhook. */
export function ThresholdForm({ thresholds }: { thresholds: Partial<Record<TSeriesKey, number>> }) {
  const [state, action, pending] = useActionState((_prev: TState, form: FormData) => setSeriesThresholdsAction(form), null);
  const shown = message(state);
  return (
    <form action={action} aria-label="Alert thresholds" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
      <div className="grid grid-cols-1 gap-x-4 gap-y-2 sm:grid-cols-2 xl:grid-cols-3">
        {SERIES_KEYS.map((key) => (
          <label key={key} className="block text-[12px] text-slate-700">
            <span className="font-medium">{SERIES[key].label}</span>{" "}
            <span className="text-slate-500">
              (alert {SERIES[key].alertWhen}, {UNIT_WORDS[fieldUnit(key)]})
            </span>
            <input
              name={key}
              inputMode="decimal"
              defaultValue={thresholdText(key, thresholds[key])}
              placeholder="none"
              className="mt-0.5 block h-8 w-full rounded-md border border-slate-300 bg-white px-2 text-[13px] tabular-nums"
            />
          </label>
        ))}
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="submit"
          disabled={pending}
          className="inline-flex h-8 items-center rounded-md bg-indigo-600 px-3 text-[13px] font-medium text-white hover:bg-indigo-700 disabled:cursor-wait disabled:opacity-60"
        >
          {pending ? "Saving…" : "Save thresholds"}
        </button>
        <p role="status" className={`min-h-5 text-[13px] ${shown?.tone === "error" ? "text-red-700" : "text-emerald-700"}`}>
          {shown?.text}
        </p>
      </div>
    </form>
  );
}
