"use client";
import { useActionState, useState } from "react";
import type { TActionResult } from "@/lib/auth/action-result";
import type { TErrorCode } from "@/lib/contracts/app-error";
import { replyWithAmount } from "@/lib/contracts/customer-reply";
import { replyContradiction } from "@/lib/evidence/check-reply";
import { CONFIRM_APPROVE_EVENT } from "@/components/keyboard-shortcuts";
import { formMessage, type TFormMessage } from "@/components/action-message";
import { RunButton } from "./run-buttons";
import { CustomerPreview } from "./customer-preview";
import { decideApprovalAction, sendBackAction } from "./actions";
import { EXECUTION_TEXT } from "./execution-status";

type TDecideState = TActionResult<{
  decision: "approve" | "reject";
  execution: string | null;
  refund: boolean;
  approvals: number;
  approvalsRequired: number;
  recorded: boolean;
}>;
type TSendBackState = TActionResult<{ decision: "send_back"; ticketId: string }>;
type TState = TDecideState | TSendBackState | null;

function message(state: TState): TFormMessage | null {
  if (state?.status === "ok" && state.decision === "send_back")
    return { tone: "ok", text: "Sent back with your note. The request is superseded; the agent reads the note on its next run." };
  return formMessage(
    state as TDecideState | null,
    (ok) => {
      if (ok.decision === "reject") return { tone: "ok", text: "Rejected. Nothing was refunded; the ticket is back with a person." };
      if (!ok.recorded)
        return {
          tone: "ok",
          text: `Lowered. You lowered it, so your approval does not count: the new request needs ${ok.approvalsRequired} approvals from other people, and nothing is refunded until they give them.`,
        };
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

type TRefund = { amountCents: number; currency: string; orderId: string };

interface TApprovalFormProps {
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
  refund: TRefund | null;
  /** At or above the specialist threshold, approving asks to confirm the amount first. */
  confirmAmount: boolean;
}

export function ApprovalForm(props: TApprovalFormProps) {
  const [state, action, pending] = useActionState(
    (_prev: TState, form: FormData): Promise<TState> =>
      form.get("decision") === "send_back" ? sendBackAction(form) : decideApprovalAction(form),
    null,
  );
  const amount = useAmountInReply(props.draft, props.refund, props.maxApproveCents);
  const confirmText = props.refund
    ? `Refund ${((amount.cents ?? props.refund.amountCents) / 100).toFixed(2)} ${props.refund.currency} on ${props.refund.orderId} and send the reply.`
    : "Send the reply (no refund).";
  const shown = message(state);
  const done = state?.status === "ok";
  const canEdit = (props.canApprove || props.canReject) && !props.blocked;
  // The reply is held to the refund it goes out with as it is edited: the check the decision makes.
  const replyProblem = props.canApprove
    ? replyContradiction(amount.reply, props.refund ? { amountCents: amount.replyCents, currency: props.refund.currency } : null)
    : null;
  const canApprove = props.canApprove && !props.blocked && !amount.overRoom && !replyProblem;
  const canReject = props.canReject && !props.blocked;
  const runAgain = props.mayRunAgent && (!!props.blocked || (state?.status === "error" && FRESH_RUN_ANSWERS.has(state.code)));
  return (
    <>
      <form action={action} className="space-y-3" aria-label="Decision">
        <input type="hidden" name="approvalId" value={props.approvalId} />
        <input type="hidden" name="digest" value={props.digest} />
        {props.refund ? (
          <AmountField
            refund={props.refund}
            amount={amount}
            maxApproveCents={props.maxApproveCents}
            disabled={!props.canApprove || !!props.blocked || done}
          />
        ) : null}
        <ReplyField
          reply={amount.reply}
          onChange={amount.setReply}
          disabled={!canEdit || done}
          error={replyProblem ?? (state?.status === "error" && state.field === "editedReply" ? state.message : null)}
        />
        <CustomerPreview reply={amount.reply} when="sent on approval" />
        <NoteField disabled={!canEdit || done} />
        <DecisionNotice blocked={props.blocked} whyNot={props.whyNot} />
        <div className="flex flex-wrap items-center gap-2">
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
          <button
            type="submit"
            name="decision"
            value="send_back"
            disabled={!canReject || pending || done}
            title="Return the draft to the agent with your note: it runs again and reads the note"
            className="inline-flex h-8 items-center rounded-md border border-violet-300 bg-white px-3 text-[13px] font-medium text-violet-800 hover:bg-violet-50 disabled:cursor-not-allowed disabled:opacity-50"
          >
            Send back with feedback
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

/** Cents of an amount written such as 50.00; null for anything else. */
function centsOf(text: string): number | null {
  const trimmed = text.trim();
  return /^\d{1,9}(\.\d{1,2})?$/.test(trimmed) ? Math.round(Number(trimmed) * 100) : null;
}

/**
 * The refund amount as typed and the reply to the customer. A lowered amount is written into the
 * reply as it is typed, so what the person approves is what they read.
 */
function useAmountInReply(draft: string, refund: TRefund | null, maxApproveCents: number | null) {
  const [reply, setReply] = useState(draft);
  const [amountText, setAmountText] = useState(refund ? (refund.amountCents / 100).toFixed(2) : "");
  // The amount the reply currently states.
  const [shownCents, setShownCents] = useState(refund?.amountCents ?? 0);
  const cents = centsOf(amountText);
  const raised = refund !== null && cents !== null && cents > refund.amountCents;
  // More than the order still allows (but not more than proposed): approving is not offered until it is lowered.
  const overRoom = refund !== null && maxApproveCents !== null && cents !== null && !raised && cents > maxApproveCents;
  const changeAmount = (text: string) => {
    setAmountText(text);
    const next = centsOf(text);
    if (refund && next !== null && next > 0 && next <= refund.amountCents && next !== shownCents) {
      setReply((r) => replyWithAmount(r, shownCents, next));
      setShownCents(next);
    }
  };
  // The amount the reply is held to: the one typed when it is a lowering, else the one the reply was last written for.
  const replyCents = cents !== null && cents > 0 && !raised ? cents : shownCents;
  return { reply, setReply, amountText, changeAmount, cents, raised, overRoom, replyCents };
}

type TAmount = ReturnType<typeof useAmountInReply>;

/** What the amount field says under it: why it cannot be approved as written, or what approving it does. */
function amountHelp(refund: TRefund, { cents, raised, overRoom }: TAmount, maxApproveCents: number | null): string {
  if (raised)
    return `The refund may only be lowered (at most ${(refund.amountCents / 100).toFixed(2)}); to refund more, run the agent again.`;
  if (overRoom)
    return `Only ${(maxApproveCents! / 100).toFixed(2)} ${refund.currency} remains refundable on ${refund.orderId}: lower it to at most that to approve.`;
  if (cents === null) return "Write an amount such as 50.00.";
  if (cents !== refund.amountCents)
    return `Lowered from ${(refund.amountCents / 100).toFixed(2)}: approving makes a new request with its own digest, checked by the policy again.`;
  return "As the agent proposed.";
}

function AmountField({
  refund,
  amount,
  maxApproveCents,
  disabled,
}: {
  refund: TRefund;
  amount: TAmount;
  maxApproveCents: number | null;
  disabled: boolean;
}) {
  const wrong = amount.raised || amount.overRoom || amount.cents === null;
  return (
    <div>
      <label htmlFor="amount" className="block text-[12px] font-medium text-slate-700">
        Refund amount ({refund.currency}){" "}
        <span className="font-normal text-slate-500">(you may lower it, never raise it; the agent&apos;s proposal is kept)</span>
      </label>
      <input
        id="amount"
        name="amount"
        type="text"
        inputMode="decimal"
        autoComplete="off"
        value={amount.amountText}
        aria-invalid={wrong}
        aria-describedby="amount-help"
        disabled={disabled}
        onChange={(e) => amount.changeAmount(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter") e.preventDefault();
        }}
        className="mt-1 block h-8 w-40 rounded-md border border-slate-300 bg-white px-2 text-[13px] tabular-nums focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30 disabled:bg-slate-50"
      />
      <p id="amount-help" className={`mt-1 text-[12px] ${wrong ? "text-red-700" : "text-slate-600"}`}>
        {amountHelp(refund, amount, maxApproveCents)}
      </p>
    </div>
  );
}

/** The reply, and beside it the server's refusal of it (a sentence stating another amount, a refund promised that is not made). */
function ReplyField({
  reply,
  onChange,
  disabled,
  error,
}: {
  reply: string;
  onChange: (reply: string) => void;
  disabled: boolean;
  error: string | null;
}) {
  return (
    <div>
      <label htmlFor="editedReply" className="block text-[12px] font-medium text-slate-700">
        Reply to the customer <span className="font-normal text-slate-500">(you may edit it; the original is kept)</span>
      </label>
      <textarea
        id="editedReply"
        name="editedReply"
        value={reply}
        onChange={(e) => onChange(e.target.value)}
        rows={5}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? "editedReply-error" : undefined}
        className="mt-1 block w-full rounded-md border border-slate-300 bg-white p-2 font-sans text-[13px] leading-relaxed focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30 disabled:bg-slate-50"
      />
      {error ? (
        <p id="editedReply-error" data-testid="reply-error" className="mt-1 text-[12px] text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function NoteField({ disabled }: { disabled: boolean }) {
  return (
    <div>
      <label htmlFor="note" className="block text-[12px] font-medium text-slate-700">
        Note <span className="font-normal text-slate-500">(required to reject or to send back)</span>
      </label>
      <input
        id="note"
        name="note"
        type="text"
        maxLength={2000}
        disabled={disabled}
        // Enter in the note would submit the form with its first button, Approve: a person typing
        // why they reject must never approve by pressing Enter.
        onKeyDown={(e) => {
          if (e.key === "Enter") e.preventDefault();
        }}
        className="mt-1 block h-8 w-full rounded-md border border-slate-300 bg-white px-2 text-[13px] focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30 disabled:bg-slate-50"
      />
    </div>
  );
}

/** Why nobody can decide the request any more (a fresh run is offered), or why this person may not. */
function DecisionNotice({ blocked, whyNot }: { blocked?: string; whyNot?: string }) {
  if (blocked)
    return (
      <p data-testid="blocked" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-[13px] font-medium text-amber-900">
        {blocked}
      </p>
    );
  if (whyNot)
    return (
      <p data-testid="why-not" data-shortcut-why className="text-[13px] text-amber-800">
        {whyNot}
      </p>
    );
  return null;
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
