"use client";
import { useActionState } from "react";
import type { TActionResult } from "@/lib/auth/action-result";
import { formMessage } from "@/components/action-message";
import { addNoteAction } from "./actions";

type TState = TActionResult<{ messageId: string }> | null;

/** An internal note: for the team, never sent to the customer, never read by the agent. */
export function NoteForm({ ticketId }: { ticketId: string }) {
  const [state, action, pending] = useActionState((_prev: TState, form: FormData) => addNoteAction(form), null);
  const shown = formMessage(state, () => ({ tone: "ok", text: "Note added." }), {
    forbidden: "Your role may not add notes.",
    invalid: "Write the note.",
  });
  return (
    <form action={action} className="mt-3 space-y-2 border-t border-slate-100 pt-3" aria-label="Internal note">
      <input type="hidden" name="ticketId" value={ticketId} />
      <label htmlFor="note-body" className="block text-[12px] font-medium text-slate-700">
        Internal note <span className="font-normal text-slate-500">(for the team only)</span>
      </label>
      <textarea
        id="note-body"
        name="body"
        rows={2}
        maxLength={4000}
        required
        key={state?.status === "ok" ? state.messageId : "note"}
        className="block w-full rounded-md border border-slate-300 bg-white p-2 text-[13px] focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30"
      />
      <div className="flex items-center gap-2">
        <button
          type="submit"
          disabled={pending}
          className="inline-flex h-8 items-center rounded-md border border-slate-300 bg-white px-3 text-[13px] font-medium text-slate-800 hover:bg-slate-50 disabled:opacity-50"
        >
          Add note
        </button>
        <p aria-live="polite" className={`text-[13px] ${shown?.tone === "error" ? "text-red-700" : "text-emerald-700"}`}>
          {shown?.text}
        </p>
      </div>
    </form>
  );
}
