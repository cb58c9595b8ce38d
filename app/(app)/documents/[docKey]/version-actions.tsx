"use client";
// The moves a version's state offers, each a button: enabled when the person may make it, otherwise
// disabled with the reason beside it (version-moves.ts). The server decides again on every click.
import Link from "next/link";
import { createContext, useActionState, useContext, useId, useState, type ReactNode } from "react";
import { formMessage, type TFailureWords, type TFormMessage } from "@/components/action-message";
import type { TActionResult } from "@/lib/auth/action-result";
import { publishVersionAction, retireDocumentAction, submitForReviewAction, withdrawFromReviewAction } from "./actions";
import type { TMove, TMoveAnswer } from "./version-moves";

const PRIMARY =
  "inline-flex h-8 items-center whitespace-nowrap rounded-md bg-indigo-600 px-3 text-[13px] font-medium text-white hover:bg-indigo-700 disabled:cursor-not-allowed disabled:bg-slate-300 disabled:text-slate-600";
const SECONDARY =
  "inline-flex h-8 items-center whitespace-nowrap rounded-md border border-slate-300 bg-white px-3 text-[13px] font-medium text-slate-800 hover:bg-slate-50 disabled:cursor-not-allowed disabled:bg-slate-50 disabled:text-slate-500";
const DANGER =
  "inline-flex h-8 items-center whitespace-nowrap rounded-md border border-red-300 bg-white px-3 text-[13px] font-medium text-red-800 hover:bg-red-50 disabled:cursor-not-allowed disabled:border-slate-200 disabled:bg-slate-50 disabled:text-slate-500";

type TState = TActionResult | null;
type TAction = (form: FormData) => Promise<TActionResult<object>>;

const WORDS: TFailureWords = {
  forbidden: "Your role may not do this with policy documents.",
  invalid: "The request was refused as it was sent.",
  signedOut: "Nothing changed.",
};

/** Why a move is refused, said beside its button and read with it (aria-describedby). */
function WhyNot({ id, answer }: { id: string; answer: TMoveAnswer }) {
  if (answer.allowed) return null;
  return (
    <p id={id} data-testid="why-not" className="text-[12px] text-amber-900">
      {answer.why}
    </p>
  );
}

/** Where a move's answer is said: above the moves, so it outlives the button it came from (a move
 * done changes which moves the page offers). */
const Report = createContext<(message: TFormMessage | null) => void>(() => {});

function useMove(action: TAction, done: string) {
  const report = useContext(Report);
  const [, run, pending] = useActionState(async (_prev: TState, form: FormData) => {
    report(null);
    const result = await action(form);
    report(formMessage(result, () => ({ tone: "ok", text: done }), WORDS));
    return result;
  }, null);
  return { run, pending };
}

function Message({ message }: { message: TFormMessage | null }) {
  return (
    <p
      role="status"
      data-testid="move-message"
      className={`mb-3 text-[13px] empty:hidden ${message?.tone === "error" ? "font-medium text-red-700" : "text-emerald-700"}`}
    >
      {message?.text}
    </p>
  );
}

/** One move in one button: a hidden field or two, the button, why it is disabled, and the answer. */
function MoveButton(props: {
  answer: TMoveAnswer;
  action: TAction;
  fields: Record<string, string>;
  label: string;
  busy: string;
  done: string;
  className: string;
}) {
  const id = useId();
  const move = useMove(props.action, props.done);
  return (
    <form action={move.run} className="space-y-1">
      {Object.entries(props.fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button
        type="submit"
        disabled={!props.answer.allowed || move.pending}
        aria-describedby={props.answer.allowed ? undefined : id}
        className={props.className}
      >
        {move.pending ? props.busy : props.label}
      </button>
      <WhyNot id={id} answer={props.answer} />
    </form>
  );
}

/** Publish now, or at a time (UTC); `children` may add fields of its own (an acknowledgement). */
function PublishForm({ documentId, answer, children }: { documentId: string; answer: TMoveAnswer; children?: ReactNode }) {
  const id = useId();
  const [when, setWhen] = useState("");
  const move = useMove(
    publishVersionAction,
    when ? "Scheduled: it takes effect at the time given." : "Published: it is evidence from now on.",
  );
  return (
    <form action={move.run} aria-label="Publish" className="space-y-2">
      <input type="hidden" name="documentId" value={documentId} />
      <div>
        <label htmlFor={`${id}-when`} className="block text-[12px] font-medium text-slate-700">
          Take effect at (UTC) <span className="font-normal text-slate-500">– leave empty to publish now</span>
        </label>
        <input
          id={`${id}-when`}
          name="effectiveAt"
          type="datetime-local"
          value={when}
          onChange={(e) => setWhen(e.target.value)}
          disabled={!answer.allowed}
          className="mt-1 block h-8 rounded-md border border-slate-300 bg-white px-2 text-[13px] disabled:bg-slate-50"
        />
      </div>
      {children}
      <button
        type="submit"
        disabled={!answer.allowed || move.pending}
        aria-describedby={answer.allowed ? undefined : `${id}-why`}
        className={PRIMARY}
      >
        {move.pending ? "Publishing…" : when ? "Schedule publication" : "Publish"}
      </button>
      <WhyNot id={`${id}-why`} answer={answer} />
    </form>
  );
}

/** Retire the document, after a second click that says what it does. */
function RetireForm({ docKey, answer }: { docKey: string; answer: TMoveAnswer }) {
  const id = useId();
  const [confirming, setConfirming] = useState(false);
  const move = useMove(retireDocumentAction, "Retired: no version of it is evidence any more.");
  if (!confirming || !answer.allowed)
    return (
      <div className="space-y-1">
        <button
          type="button"
          onClick={() => setConfirming(true)}
          disabled={!answer.allowed}
          aria-describedby={answer.allowed ? undefined : id}
          className={DANGER}
        >
          Retire document…
        </button>
        <WhyNot id={id} answer={answer} />
      </div>
    );
  return (
    <form action={move.run} aria-label="Retire document" className="space-y-2 rounded-md border border-red-200 bg-red-50 p-3">
      <input type="hidden" name="docKey" value={docKey} />
      <p className="text-[13px] text-red-900">
        Retire <code className="font-mono">{docKey}</code>? Its published versions stop being evidence at once and are never cited again.
        Drafts and versions in review stay; publishing one brings the document back.
      </p>
      <div className="flex flex-wrap gap-2">
        <button type="submit" disabled={move.pending} className={DANGER}>
          {move.pending ? "Retiring…" : "Retire"}
        </button>
        <button type="button" onClick={() => setConfirming(false)} className={SECONDARY}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** A move that opens another page (the editor), or its reason when it may not be made. */
function MoveLink({ answer, href, label }: { answer: TMoveAnswer; href: string; label: string }) {
  const id = useId();
  if (answer.allowed)
    return (
      <Link href={href} className={SECONDARY}>
        {label}
      </Link>
    );
  return (
    <div className="space-y-1">
      <button type="button" disabled aria-describedby={id} className={SECONDARY}>
        {label}
      </button>
      <WhyNot id={id} answer={answer} />
    </div>
  );
}

export function VersionActions(props: {
  documentId: string;
  docKey: string;
  version: number;
  moves: Partial<Record<TMove, TMoveAnswer>>;
  /** Extra fields of the publish form (an acknowledgement of the evaluation's regressions). */
  publishExtras?: ReactNode;
}) {
  const { moves, docKey, version } = props;
  const [message, setMessage] = useState<TFormMessage | null>(null);
  const editHref = `/documents/${encodeURIComponent(docKey)}/${version}/edit`;
  return (
    <Report.Provider value={setMessage}>
      <Message message={message} />
      {Object.keys(moves).length ? (
        <Moves {...props} editHref={editHref} />
      ) : (
        <p className="text-[13px] text-slate-600">Nothing can be done with this version any more.</p>
      )}
    </Report.Provider>
  );
}

function Moves(props: Parameters<typeof VersionActions>[0] & { editHref: string }) {
  const { moves, documentId, docKey, editHref } = props;
  const id = { documentId };
  return (
    <div className="flex flex-col items-start gap-3">
      {moves.edit ? <MoveLink answer={moves.edit} href={editHref} label="Edit draft" /> : null}
      {moves.submit ? (
        <MoveButton
          answer={moves.submit}
          action={submitForReviewAction}
          fields={id}
          label="Submit for review"
          busy="Sending…"
          done="Sent to review: its text is fixed now; a second person publishes it."
          className={PRIMARY}
        />
      ) : null}
      {moves.publish ? (
        <PublishForm documentId={documentId} answer={moves.publish}>
          {props.publishExtras}
        </PublishForm>
      ) : null}
      {moves.withdraw ? (
        <MoveButton
          answer={moves.withdraw}
          action={withdrawFromReviewAction}
          fields={id}
          label="Withdraw from review"
          busy="Withdrawing…"
          done="Withdrawn: it is a draft again."
          className={SECONDARY}
        />
      ) : null}
      {moves.newVersion ? <MoveLink answer={moves.newVersion} href={editHref} label="Write a new version from this one" /> : null}
      {moves.retire ? <RetireForm docKey={docKey} answer={moves.retire} /> : null}
    </div>
  );
}
