"use client";
import { useActionState, useState } from "react";
import type { TActionResult } from "@/lib/auth/action-result";
import { customerReply } from "@/lib/contracts/customer-reply";
import { formMessage } from "@/components/action-message";
import { resolveByHandAction } from "./actions";
import { CustomerPreview } from "./customer-preview";

type TState = TActionResult<{ approvalId: string }> | null;

/** For a ticket handed to a person with nothing to approve: the person writes the reply and resolves it. */
export function ResolveForm({ ticketId, draft }: { ticketId: string; draft: string }) {
  const [state, action, pending] = useActionState((_prev: TState, form: FormData) => resolveByHandAction(form), null);
  // The agent's draft as the customer would read it: its citation tokens are for a reviewer checking
  // the draft, and a person writing the reply starts from the words that are sent.
  const [reply, setReply] = useState(() => customerReply(draft));
  // A run that ends while the page is open brings a new draft: it replaces the reply unless the
  // person has started writing their own.
  const [shownDraft, setShownDraft] = useState(draft);
  if (draft !== shownDraft) {
    setShownDraft(draft);
    if (reply === customerReply(shownDraft)) setReply(customerReply(draft));
  }
  // A refusal of the reply itself (it promises a refund) is shown beside the reply, the rest below the button.
  const replyError = state?.status === "error" && state.field === "reply" ? state.message : null;
  const error = replyError
    ? null
    : (formMessage(state, () => null, { forbidden: "Your role may not resolve tickets.", invalid: "Check the form." })?.text ?? null);
  return (
    <form action={action} className="space-y-3" aria-label="Resolve by hand">
      <input type="hidden" name="ticketId" value={ticketId} />
      <div>
        <label htmlFor="reply" className="block text-[12px] font-medium text-slate-700">
          Your reply to the customer
        </label>
        <textarea
          id="reply"
          name="reply"
          rows={5}
          value={reply}
          onChange={(e) => setReply(e.target.value)}
          aria-invalid={replyError ? true : undefined}
          aria-describedby={replyError ? "reply-error" : undefined}
          className="mt-1 block w-full rounded-md border border-slate-300 bg-white p-2 text-[13px] leading-relaxed focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30"
        />
        {replyError ? (
          <p id="reply-error" data-testid="reply-error" className="mt-1 text-[12px] text-red-700">
            {replyError}
          </p>
        ) : null}
      </div>
      <CustomerPreview reply={reply} when="sent when you resolve" />
      <div>
        <label htmlFor="resolve-note" className="block text-[12px] font-medium text-slate-700">
          Internal note <span className="font-normal text-slate-500">(optional)</span>
        </label>
        <input
          id="resolve-note"
          name="note"
          type="text"
          maxLength={2000}
          className="mt-1 block h-8 w-full rounded-md border border-slate-300 bg-white px-2 text-[13px] focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30"
        />
      </div>
      <button
        type="submit"
        disabled={pending}
        className="inline-flex h-8 items-center rounded-md bg-indigo-600 px-3 text-[13px] font-medium text-white hover:bg-indigo-700 disabled:cursor-wait disabled:opacity-60"
      >
        Send reply and resolve
      </button>
      <p aria-live="polite" className="min-h-5 text-[13px] text-red-700">
        {error}
      </p>
    </form>
  );
}
