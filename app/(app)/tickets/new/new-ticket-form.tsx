"use client";
import { useActionState, useState } from "react";
import type { TActionResult } from "@/lib/auth/action-result";
import { formMessage } from "@/components/action-message";
import { createTicketAction } from "./actions";

type TState = TActionResult<{ ticketId: string }> | null;
type TField = "subject" | "message" | "customerEmail" | "orderRef";

const INPUT =
  "mt-1 block w-full rounded-md border border-slate-300 bg-white px-2.5 text-[13px] text-slate-900 shadow-xs placeholder:text-slate-400 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30 aria-[invalid=true]:border-red-500 aria-[invalid=true]:ring-red-500/20";
const LABEL = "block text-[12px] font-medium text-slate-700";

function formError(state: TState): string | null {
  return (
    formMessage(state, () => null, {
      forbidden: "Your role may not create tickets.",
      invalid: "Check the fields marked above.",
      fieldsShownBeside: true,
      signedOut: "(Copy your text first.)",
    })?.text ?? null
  );
}

export function NewTicketForm() {
  const [state, action, pending] = useActionState((_prev: TState, form: FormData) => createTicketAction(form), null);
  // Controlled, so nothing typed is lost when the action answers with an error (React resets
  // uncontrolled fields after every action).
  const [values, setValues] = useState<Record<TField, string>>({ subject: "", message: "", customerEmail: "", orderRef: "" });
  const errors = state?.status === "invalid" ? state.fieldErrors : {};
  const general = formError(state);

  const field = (name: TField) => ({
    id: `ticket-${name}`,
    name,
    value: values[name],
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setValues((v) => ({ ...v, [name]: e.target.value })),
    "aria-invalid": errors[name]?.length ? true : undefined,
    "aria-describedby": [errors[name]?.length ? `ticket-${name}-error` : null, `ticket-${name}-hint`].filter(Boolean).join(" "),
  });
  const fieldError = (name: TField) =>
    errors[name]?.length ? (
      <p id={`ticket-${name}-error`} className="mt-1 text-[12px] text-red-700">
        {errors[name].join(" ")}
      </p>
    ) : null;

  return (
    <form
      action={action}
      noValidate
      aria-label="New ticket"
      className="max-w-2xl space-y-4 rounded-lg border border-slate-200 bg-white p-4"
    >
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor="ticket-customerEmail" className={LABEL}>
            Customer email
          </label>
          <input
            {...field("customerEmail")}
            type="email"
            autoComplete="off"
            spellCheck={false}
            placeholder="name@example.com"
            className={`${INPUT} h-8`}
          />
          <p id="ticket-customerEmail-hint" className="sr-only">
            The address the customer wrote from.
          </p>
          {fieldError("customerEmail")}
        </div>
        <div>
          <label htmlFor="ticket-orderRef" className={LABEL}>
            Order number <span className="font-normal text-slate-500">(optional)</span>
          </label>
          <input {...field("orderRef")} autoComplete="off" spellCheck={false} placeholder="ORD-1001" className={`${INPUT} h-8 font-mono`} />
          <p id="ticket-orderRef-hint" className="sr-only">
            Leave empty when the customer names no order.
          </p>
          {fieldError("orderRef")}
        </div>
      </div>
      <div>
        <label htmlFor="ticket-subject" className={LABEL}>
          Subject
        </label>
        <input {...field("subject")} autoComplete="off" maxLength={300} className={`${INPUT} h-8`} />
        <p id="ticket-subject-hint" className="sr-only">
          One line, as the customer wrote it.
        </p>
        {fieldError("subject")}
      </div>
      <div>
        <label htmlFor="ticket-message" className={LABEL}>
          Message
        </label>
        <textarea {...field("message")} rows={8} className={`${INPUT} py-2 leading-relaxed`} />
        <p id="ticket-message-hint" className="mt-1 text-[12px] text-slate-500">
          The customer&apos;s words. The intake classifier reads them: threats of a chargeback or legal action, account access and address
          changes go straight to a person.
        </p>
        {fieldError("message")}
      </div>
      <div className="flex flex-wrap items-center gap-3 border-t border-slate-100 pt-3">
        <button
          type="submit"
          disabled={pending}
          aria-busy={pending}
          className="inline-flex h-8 items-center rounded-md bg-indigo-600 px-3 text-[13px] font-medium text-white hover:bg-indigo-700 disabled:cursor-wait disabled:opacity-60"
        >
          {pending ? "Creating…" : "Create ticket"}
        </button>
        <p role="status" aria-live="polite" data-testid="new-ticket-message" className="min-h-5 text-[13px] text-red-700">
          {general}
        </p>
      </div>
    </form>
  );
}
