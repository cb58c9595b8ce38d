"use client";
// The forms that judge a run, save it as an episode, hand it to someone and review a candidate: on the
// Annotations page and on the ticket page's run cards.
import { useActionState, useId, useState } from "react";
import type { TActionResult } from "@/lib/auth/action-result";
import { formMessage } from "@/components/action-message";
import { ANNOTATION_REASON_LABELS, ANNOTATION_REASONS } from "@/lib/contracts/reason-codes";
import { annotateRunAction, assignAnnotationAction, reviewEpisodeAction, saveEpisodeAction } from "./actions";

const FIELD =
  "block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-[13px] focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30";
const LABEL = "block text-[12px] font-medium text-slate-700";
const BUTTON =
  "inline-flex h-8 items-center rounded-md border border-slate-300 bg-white px-3 text-[13px] font-medium text-slate-800 hover:bg-slate-50 disabled:cursor-wait disabled:opacity-60";
const PRIMARY =
  "inline-flex h-8 items-center rounded-md bg-indigo-600 px-3 text-[13px] font-medium text-white hover:bg-indigo-700 disabled:cursor-wait disabled:opacity-60";

function Status({ shown, testId }: { shown: ReturnType<typeof formMessage>; testId: string }) {
  return (
    <p
      role="status"
      data-testid={testId}
      className={`min-w-0 text-[13px] ${shown?.tone === "error" ? "text-red-700" : "text-emerald-700"}`}
    >
      {shown?.text}
    </p>
  );
}

/** Correct, or wrong for a reason of the closed list, with the reply or amount it should have had. */
export function AnnotateForm({ runId }: { runId: string }) {
  const id = useId();
  const [verdict, setVerdict] = useState<"correct" | "wrong">("wrong");
  const [state, action, pending] = useActionState((_prev: TActionResult<object> | null, form: FormData) => annotateRunAction(form), null);
  const shown = formMessage(state, () => ({ tone: "ok", text: "Judgement saved." }), {
    forbidden: "Your role may not annotate runs.",
    invalid: "Say whether the run was correct, and why not when it was wrong.",
  });
  return (
    <form action={action} aria-label="Judge this run" className="space-y-2">
      <input type="hidden" name="runId" value={runId} />
      <fieldset className="flex flex-wrap gap-4 text-[13px]">
        <legend className="sr-only">Verdict</legend>
        {(["correct", "wrong"] as const).map((v) => (
          <label key={v} className="inline-flex items-center gap-1.5">
            <input type="radio" name="verdict" value={v} checked={verdict === v} onChange={() => setVerdict(v)} />
            {v === "correct" ? "Correct" : "Wrong"}
          </label>
        ))}
      </fieldset>
      {verdict === "wrong" ? (
        <div className="grid gap-2 md:grid-cols-[2fr_1fr]">
          <div>
            <label htmlFor={`${id}-reason`} className={LABEL}>
              Why it was wrong
            </label>
            <select id={`${id}-reason`} name="reason" required className={FIELD} defaultValue="">
              <option value="" disabled>
                Choose a reason
              </option>
              {ANNOTATION_REASONS.map((r) => (
                <option key={r} value={r}>
                  {ANNOTATION_REASON_LABELS[r]} ({r})
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor={`${id}-amount`} className={LABEL}>
              Corrected amount (USD) <span className="font-normal text-slate-500">– optional</span>
            </label>
            <input id={`${id}-amount`} name="correctedAmount" inputMode="decimal" maxLength={12} className={FIELD} />
          </div>
          <div className="md:col-span-2">
            <label htmlFor={`${id}-reply`} className={LABEL}>
              Corrected reply <span className="font-normal text-slate-500">– optional</span>
            </label>
            <textarea id={`${id}-reply`} name="correctedReply" rows={3} maxLength={5000} className={FIELD} />
          </div>
        </div>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" disabled={pending} className={PRIMARY}>
          {pending ? "Saving…" : "Save judgement"}
        </button>
        <Status shown={shown} testId="annotation-status" />
      </div>
    </form>
  );
}

/** "Save as episode": the judged run becomes a candidate for the team dataset. */
export function SaveEpisodeButton({ runId }: { runId: string }) {
  const [state, action, pending] = useActionState(
    (_prev: TActionResult<{ episodeId: string }> | null, form: FormData) => saveEpisodeAction(form),
    null,
  );
  const shown = formMessage(state, (ok) => ({ tone: "ok", text: `Saved as the candidate episode ${ok.episodeId}.` }), {
    forbidden: "Your role may not save episodes.",
    invalid: "This run cannot be saved as an episode.",
  });
  return (
    <form action={action} aria-label="Save as episode" className="flex flex-wrap items-center gap-3">
      <input type="hidden" name="runId" value={runId} />
      <button type="submit" disabled={pending} className={BUTTON}>
        {pending ? "Saving…" : "Save as episode"}
      </button>
      <Status shown={shown} testId="save-episode-status" />
    </form>
  );
}

/** Take a waiting run, give it back, or (a lead) give it to someone. */
export function AssignRunForm(props: {
  runId: string;
  assigneeId: string | null;
  me: string;
  people: { id: string; name: string }[] | null;
}) {
  const [state, action, pending] = useActionState(
    (_prev: TActionResult<object> | null, form: FormData) => assignAnnotationAction(form),
    null,
  );
  const shown = formMessage(state, () => null, {
    forbidden: "Only a lead gives a run to someone else.",
    invalid: "Choose a person who annotates.",
  });
  const mine = props.assigneeId === props.me;
  // Someone else holds it: only a lead or an admin hands it on (assign-annotation.ts).
  if (!props.people && props.assigneeId && !mine) return null;
  return (
    <form action={action} aria-label="Assign the run" className="flex flex-wrap items-center gap-2">
      <input type="hidden" name="runId" value={props.runId} />
      {props.people ? (
        <select name="assigneeId" aria-label="Assignee" defaultValue={props.assigneeId ?? ""} className={`${FIELD} w-40`}>
          <option value="">Unassigned</option>
          {props.people.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      ) : (
        <input type="hidden" name="assigneeId" value={mine ? "" : props.me} />
      )}
      <button type="submit" disabled={pending} className={BUTTON}>
        {props.people ? "Assign" : mine ? "Give back" : "Take"}
      </button>
      {shown ? <Status shown={shown} testId="assign-run-status" /> : null}
    </form>
  );
}

/** A lead's review of a candidate: promote it into the team dataset, or discard it. */
export function ReviewCandidateForm({ candidateId, episodeId }: { candidateId: string; episodeId: string }) {
  const [state, action, pending] = useActionState((_prev: TActionResult<object> | null, form: FormData) => reviewEpisodeAction(form), null);
  const shown = formMessage(state, () => ({ tone: "ok", text: "Reviewed." }), {
    forbidden: "Only a lead or an admin reviews episodes.",
    invalid: "Choose promote or discard.",
  });
  return (
    <form action={action} aria-label={`Review ${episodeId}`} className="flex flex-wrap items-center gap-2">
      <input type="hidden" name="candidateId" value={candidateId} />
      <button type="submit" name="decision" value="promote" disabled={pending} className={PRIMARY}>
        Promote
      </button>
      <button type="submit" name="decision" value="discard" disabled={pending} className={BUTTON}>
        Discard
      </button>
      <Status shown={shown} testId="review-episode-status" />
    </form>
  );
}
