"use client";
import { useActionState, useState } from "react";
import type { TActionResult } from "@/lib/auth/action-result";
import type { TErrorCode } from "@/lib/contracts/app-error";
import { replyWithAmount } from "@/lib/contracts/customer-reply";
import { CONFIRM_APPROVE_EVENT } from "@/components/keyboard-shortcuts";
import { formMessage, type TFormMessage } from "@/components/action-message";
import { RunButton } from "./run-buttons";
import { CustomerPreview } from "./customer-preview";
import { decideApprovalAction } from "./actions";
import { EXECUTION_TEXT } from "./execution-status";

type TState = TActionResult<{
  decision: "approve" | "reject";
  execution: string | null;
  refund: boolean;
  approvals: number;
  approvalsRequired: number;
}> | null;

function message(state: TState): TFormMessage | null {
  return formMessage(
    state,
    (ok) => {
      if (ok.decision === "reject") return { tone: "ok", text: "Rejected. Nothing was refunded; the ticket is back with a person." };
      if (ok.approvals < ok.approvalsRequired)
        return {
          tone: "ok",
          text: `Approval ${ok.approvals} of ${ok.approvalsRequired} recorded. Nothing is refunded until a second person approves.`,
        };
      if (!ok.refund) return { tone: "ok", text: "Approved. The reply is in the outbox." };
      return {
        tone: "ok",
        text: `Approved. ${ok.execution ? (EXECUTION_TEXT[ok.execution] ?? ok.execution) : "The refund is pending: the page shows its outcome when the executor records it."}`,
      };
    },
    { forbidden: "Your role may not decide this request.", invalid: "Check the form." },
  );
}

/** Refusals that a fresh run of the agent answers: the request was made under what no longer holds. */
const FRESH_RUN_ANSWERS: ReadonlySet<TErrorCode> = new Set<TErrorCode>(["stale", "expired"]);

export function ApprovalForm(props: {
  approvalId: string;
  ticketId: string;
  digest: string;
  draft: string;
  /** What the decision rules allow this person (decision-view.ts): Approve, up to an amount, and Reject. */
  canApprove: boolean;
  canReject: boolean;
  maxApproveCents: number | null;
  whyNot?: string;
  /** Why the request can no longer be decided (stale, expired), known when the page was rendered. */
  blocked?: string;
  mayRunAgent: boolean;
  /** The refund the request proposes, which the person may lower (never raise); null for a reply. */
  refund: { amountCents: number; currency: string; orderId: string } | null;
  /** At or above the specialist threshold, approving asks to confirm the amount first. */
  confirmAmount: boolean;
}) {
  const [state, action, pending] = useActionState((_prev: TState, form: FormData) => decideApprovalAction(form), null);
  const [reply, setReply] = useState(props.draft);
  const [amountText, setAmountText] = useState(props.refund ? (props.refund.amountCents / 100).toFixed(2) : "");
  // The amount the reply currently states: a lowered amount is written into the reply as it is typed,
  // so what the person approves is what they read.
  const [shownCents, setShownCents] = useState(props.refund?.amountCents ?? 0);
  const cents = /^\d{1,9}(\.\d{1,2})?$/.test(amountText.trim()) ? Math.round(Number(amountText.trim()) * 100) : null;
  const raised = props.refund !== null && cents !== null && cents > props.refund.amountCents;
  // More than the order still allows (but not more than proposed): approving is not offered until it is lowered.
  const overRoom = props.refund !== null && props.maxApproveCents !== null && cents !== null && !raised && cents > props.maxApproveCents;
  const confirmText = props.refund
    ? `Refund ${((cents ?? props.refund.amountCents) / 100).toFixed(2)} ${props.refund.currency} on ${props.refund.orderId} and send the reply.`
    : "Send the reply (no refund).";
  const shown = message(state);
  const done = state?.status === "ok";
  const canEdit = (props.canApprove || props.canReject) && !props.blocked;
  const canApprove = props.canApprove && !props.blocked && !overRoom;
  const canReject = props.canReject && !props.blocked;
  const runAgain = props.mayRunAgent && (!!props.blocked || (state?.status === "error" && FRESH_RUN_ANSWERS.has(state.code)));
  return (
    <>
      <form action={action} className="space-y-3" aria-label="Decision">
        <input type="hidden" name="approvalId" value={props.approvalId} />
        <input type="hidden" name="digest" value={props.digest} />
        {props.refund ? (
          <div>
            <label htmlFor="amount" className="block text-[12px] font-medium text-slate-700">
              Refund amount ({props.refund.currency}){" "}
              <span className="font-normal text-slate-500">(you may lower it, never raise it; the agent&apos;s proposal is kept)</span>
            </label>
            <input
              id="amount"
              name="amount"
              type="text"
              inputMode="decimal"
              autoComplete="off"
              value={amountText}
              aria-invalid={raised || overRoom || cents === null}
              aria-describedby="amount-help"
              disabled={!props.canApprove || !!props.blocked || done}
              onChange={(e) => {
                setAmountText(e.target.value);
                const text = e.target.value.trim();
                const next = /^\d{1,9}(\.\d{1,2})?$/.test(text) ? Math.round(Number(text) * 100) : null;
                if (next !== null && next > 0 && next <= props.refund!.amountCents && next !== shownCents) {
                  setReply((r) => replyWithAmount(r, shownCents, next));
                  setShownCents(next);
                }
              }}
              onKeyDown={(e) => {
                if (e.key === "Enter") e.preventDefault();
              }}
              className="mt-1 block h-8 w-40 rounded-md border border-slate-300 bg-white px-2 text-[13px] tabular-nums focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30 disabled:bg-slate-50"
            />
            <p id="amount-help" className={`mt-1 text-[12px] ${raised || overRoom || cents === null ? "text-red-700" : "text-slate-600"}`}>
              {raised
                ? `The refund may only be lowered (at most ${(props.refund.amountCents / 100).toFixed(2)}); to refund more, run the agent again.`
                : overRoom
                  ? `Only ${(props.maxApproveCents! / 100).toFixed(2)} ${props.refund.currency} remains refundable on ${props.refund.orderId}: lower it to at most that to approve.`
                  : cents === null
                    ? "Write an amount such as 50.00."
                    : cents !== props.refund.amountCents
                      ? `Lowered from ${(props.refund.amountCents / 100).toFixed(2)}: approving makes a new request with its own digest, checked by the policy again.`
                      : "As the agent proposed."}
            </p>
          </div>
        ) : null}
        <div>
          <label htmlFor="editedReply" className="block text-[12px] font-medium text-slate-700">
            Reply to the customer <span className="font-normal text-slate-500">(you may edit it; the original is kept)</span>
          </label>
          <textarea
            id="editedReply"
            name="editedReply"
            value={reply}
            onChange={(e) => setReply(e.target.value)}
            rows={5}
            disabled={!canEdit || done}
            className="mt-1 block w-full rounded-md border border-slate-300 bg-white p-2 font-sans text-[13px] leading-relaxed focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30 disabled:bg-slate-50"
          />
        </div>
        <CustomerPreview reply={reply} when="sent on approval" />
        <div>
          <label htmlFor="note" className="block text-[12px] font-medium text-slate-700">
            Note <span className="font-normal text-slate-500">(required to reject)</span>
          </label>
          <input
            id="note"
            name="note"
            type="text"
            maxLength={2000}
            disabled={!canEdit || done}
            // Enter in the note would submit the form with its first button, Approve: a person typing
            // why they reject must never approve by pressing Enter.
            onKeyDown={(e) => {
              if (e.key === "Enter") e.preventDefault();
            }}
            className="mt-1 block h-8 w-full rounded-md border border-slate-300 bg-white px-2 text-[13px] focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30 disabled:bg-slate-50"
          />
        </div>
        {props.blocked ? (
          <p
            data-testid="blocked"
            className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-[13px] font-medium text-amber-900"
          >
            {props.blocked}
          </p>
        ) : props.whyNot ? (
          <p data-testid="why-not" data-shortcut-why className="text-[13px] text-amber-800">
            {props.whyNot}
          </p>
        ) : null}
        <div className="flex items-center gap-2">
          <ApproveButton confirmText={confirmText} confirmAmount={props.confirmAmount} disabled={!canApprove || pending || done} />
          <button
            type="submit"
            name="decision"
            value="reject"
            disabled={!canReject || pending || done}
            className="inline-flex h-8 items-center rounded-md border border-slate-300 bg-white px-3 text-[13px] font-medium text-slate-800 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50"
          >
            Reject
          </button>
          {pending ? <span className="text-[12px] text-slate-500">Saving…</span> : null}
        </div>
        <p
          aria-live="polite"
          data-testid="decision-message"
          className={`min-h-5 text-[13px] ${shown?.tone === "error" ? "text-red-700" : "text-emerald-700"}`}
        >
          {shown?.text}
        </p>
      </form>
      {runAgain ? (
        <div className="flex flex-wrap items-center gap-2" data-testid="run-again">
          <RunButton ticketId={props.ticketId} mode="live" label="Run the agent again" primary planner="default" />
          <span className="text-[12px] text-slate-600">for a fresh request under what is in force now</span>
        </div>
      ) : null}
    </>
  );
}

/** Approve; a large refund is confirmed first, in the dialog the keyboard's "a" opens, whose Approve clicks this button again, confirmed. */
function ApproveButton({ confirmText, confirmAmount, disabled }: { confirmText: string; confirmAmount: boolean; disabled: boolean }) {
  return (
    <button
      type="submit"
      name="decision"
      value="approve"
      data-shortcut="approve"
      data-confirm={confirmText}
      onClick={(e) => {
        const button = e.currentTarget;
        if (!confirmAmount || button.dataset.confirmed === "true") {
          delete button.dataset.confirmed;
          return;
        }
        e.preventDefault();
        document.dispatchEvent(new CustomEvent(CONFIRM_APPROVE_EVENT));
      }}
      disabled={disabled}
      className="inline-flex h-8 items-center rounded-md bg-emerald-600 px-3 text-[13px] font-medium text-white hover:bg-emerald-700 disabled:cursor-not-allowed disabled:opacity-50"
    >
      Approve
    </button>
  );
}
