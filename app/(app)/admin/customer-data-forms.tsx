"use client";
import { useActionState } from "react";
import { formMessage } from "@/components/action-message";
import type { TActionResult } from "@/lib/auth/action-result";
import type { TErrorCode } from "@/lib/contracts/app-error";
import { requestExportAction, setLegalHoldAction } from "./actions";

const FIELD = "block h-9 w-full rounded-md border border-slate-300 bg-white px-3 font-mono text-sm shadow-xs";
const BUTTON =
  "inline-flex h-9 items-center justify-center rounded-md border border-slate-300 bg-white px-4 text-sm font-medium text-slate-900 shadow-xs hover:bg-slate-50 disabled:opacity-70";

/** Words for the refusals, by code: the page branches on the code, never on the message. */
const REFUSALS: Partial<Record<TErrorCode, string>> = { not_found: "There is no customer with this id (or their data was erased)." };

export function Status({ shown }: { shown: { tone: "ok" | "error"; text: string } | null | undefined }) {
  return (
    <p role="status" aria-live="polite" className={`min-h-5 text-[13px] ${shown?.tone === "ok" ? "text-emerald-700" : "text-red-700"}`}>
      {shown?.text}
    </p>
  );
}

export function CustomerIdField({ id, label }: { id: string; label: string }) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-[13px] font-medium text-slate-700">
        {label}
      </label>
      <input id={id} name="customerId" required maxLength={64} autoComplete="off" className={FIELD} />
    </div>
  );
}

type THoldState = TActionResult<{ customerId: string; hold: boolean; changed: boolean }> | null;

/** An admin places or lifts a legal hold on a customer: while it holds, erasure and retention leave them alone. */
export function LegalHoldForm() {
  const [state, action, pending] = useActionState((_prev: THoldState, form: FormData) => setLegalHoldAction(form), null);
  const shown = formMessage(
    state,
    (ok) => ({
      tone: "ok",
      text: ok.changed
        ? `${ok.hold ? "Placed a legal hold on" : "Lifted the legal hold on"} ${ok.customerId}.`
        : `${ok.customerId} was ${ok.hold ? "under a legal hold" : "under no legal hold"} already.`,
    }),
    { forbidden: "Only an admin may place or lift a legal hold.", invalid: "Enter the customer's id.", byCode: REFUSALS },
  );
  return (
    <form action={action} aria-label="Legal hold" className="space-y-3">
      <CustomerIdField id="hold-customerId" label="Customer id to hold" />
      <Status shown={shown} />
      <div className="flex flex-wrap gap-2">
        <button type="submit" name="hold" value="place" disabled={pending} className={BUTTON}>
          Place legal hold
        </button>
        <button type="submit" name="hold" value="lift" disabled={pending} className={BUTTON}>
          Lift legal hold
        </button>
      </div>
    </form>
  );
}

type TExportState = TActionResult<{ customerId: string; exportId: string }> | null;

/** An admin asks for everything held about a customer; a job gathers it, and the list below offers it once. */
export function RequestExportForm() {
  const [state, action, pending] = useActionState((_prev: TExportState, form: FormData) => requestExportAction(form), null);
  const shown = formMessage(
    state,
    (ok) => ({ tone: "ok", text: `Export of ${ok.customerId} requested: it is listed below once gathered.` }),
    {
      forbidden: "Only an admin may export a customer's data.",
      invalid: "Enter the customer's id.",
      byCode: REFUSALS,
    },
  );
  return (
    <form action={action} aria-label="Data export" className="space-y-3">
      <CustomerIdField id="export-customerId" label="Customer id to export" />
      <Status shown={shown} />
      <button type="submit" disabled={pending} className={BUTTON}>
        Export their data
      </button>
    </form>
  );
}
