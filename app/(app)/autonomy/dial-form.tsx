"use client";
import { useActionState } from "react";
import type { TActionResult } from "@/lib/auth/action-result";
import { formMessage, type TFormMessage } from "@/components/action-message";
import { setAutonomyLimitAction } from "./actions";

type TState = TActionResult<{ limitCents: number; changed: boolean }> | null;

const usd = (cents: number) => `${(cents / 100).toFixed(2)} USD`;

function message(state: TState): TFormMessage | null {
  return formMessage(
    state,
    (ok) =>
      ok.changed
        ? { tone: "ok", text: `The dial is now at ${usd(ok.limitCents)}. The change is recorded in the audit trail.` }
        : { tone: "ok", text: `The dial was already at ${usd(ok.limitCents)}: nothing changed.` },
    { forbidden: "Your role may not move the autonomy dial.", invalid: "Choose one of the listed limits." },
  );
}

/** Moves the dial: zero or one of the candidate limits. A refusal says why and changes nothing. */
export function DialForm({ currentCents, positions }: { currentCents: number; positions: { cents: number; note: string }[] }) {
  const [state, action, pending] = useActionState((_prev: TState, form: FormData) => setAutonomyLimitAction(form), null);
  const shown = message(state);
  return (
    <form action={action} aria-label="Set the autonomy dial" className="space-y-2">
      <label htmlFor="limitCents" className="block text-[12px] font-medium text-slate-700">
        Move the dial to
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <select
          id="limitCents"
          name="limitCents"
          defaultValue={positions.some((p) => p.cents === currentCents) ? String(currentCents) : undefined}
          aria-describedby="dial-message"
          className="h-8 min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-2 text-[13px] sm:max-w-72"
        >
          {positions.map((p) => (
            <option key={p.cents} value={p.cents}>
              {usd(p.cents)}
              {p.note ? ` (${p.note})` : ""}
            </option>
          ))}
        </select>
        <button
          type="submit"
          disabled={pending}
          className="inline-flex h-8 items-center rounded-md bg-indigo-600 px-3 text-[13px] font-medium text-white hover:bg-indigo-700 disabled:cursor-wait disabled:opacity-60"
        >
          {pending ? "Setting…" : "Set limit"}
        </button>
      </div>
      <p
        id="dial-message"
        role="status"
        data-testid="dial-message"
        className={`min-h-5 text-[13px] ${shown?.tone === "error" ? "text-red-700" : "text-emerald-700"}`}
      >
        {shown?.text}
      </p>
    </form>
  );
}
