"use client";
import { useActionState } from "react";
import { formMessage } from "@/components/action-message";
import type { TActionResult } from "@/lib/auth/action-result";
import type { TErrorCode } from "@/lib/contracts/app-error";
import { eraseCustomerAction } from "./actions";
import { CustomerIdField, Status } from "./customer-data-forms";

type TState = TActionResult<{ customerId: string; erasedNow: boolean; tickets: number }> | null;

/** Words for the erasure's refusals, by code: the page branches on the code, never on the message. */
const REFUSALS: Partial<Record<TErrorCode, string>> = {
  erasure_refund_in_flight: "A refund of this customer's is still in flight: erase them once it has ended.",
  erasure_legal_hold: "A legal hold on the customer or one of their tickets suspends erasure.",
  not_found: "There is no customer with this id.",
};

/** An admin erases a customer's personal data by their id (GDPR Art. 17). */
export function EraseCustomerForm() {
  const [state, action, pending] = useActionState((_prev: TState, form: FormData) => eraseCustomerAction(form), null);
  const shown = formMessage(
    state,
    (ok) => ({
      tone: "ok",
      text: ok.erasedNow
        ? `Erased ${ok.customerId}: their personal data in ${ok.tickets} ${ok.tickets === 1 ? "ticket" : "tickets"} and their account.`
        : `${ok.customerId} was erased already.`,
    }),
    { forbidden: "Only an admin may erase a customer.", invalid: "Enter the customer's id and confirm.", byCode: REFUSALS },
  );
  return (
    <form action={action} className="space-y-3">
      <CustomerIdField id="erase-customerId" label="Customer id" />
      <label className="flex items-start gap-2 text-sm text-slate-800">
        <input type="checkbox" name="confirm" className="mt-1" />
        <span>I understand that this cannot be undone</span>
      </label>
      <Status shown={shown} />
      <button
        type="submit"
        disabled={pending}
        className="inline-flex h-9 items-center justify-center rounded-md bg-red-700 px-4 text-sm font-medium text-white shadow-xs hover:bg-red-800 disabled:opacity-70"
      >
        Erase customer
      </button>
    </form>
  );
}
