"use client";
// The evaluation panel's face (evaluation-panel.tsx loads it): where the evaluation of this content
// stands, what publishing the version changes – answers gained and lost, citations moved, episodes
// that flip – and the two things a person does here: evaluate, and acknowledge regressions by name.
// While the evaluation waits or runs, the page refreshes itself.
import { useRouter } from "next/navigation";
import { useActionState, useEffect, useId } from "react";
import { formMessage, type TFailureWords } from "@/components/action-message";
import { Card } from "@/components/card";
import { formatUtc } from "@/components/format";
import type { TActionResult } from "@/lib/auth/action-result";
import type { TVersionEvaluation, TEvaluationView } from "@/lib/documents/evaluate-load";
import { acknowledgeRegressionsAction, startEvaluationAction } from "./evaluation-actions";
import { EvaluationResults } from "./evaluation-results";

const PRIMARY =
  "inline-flex h-8 items-center whitespace-nowrap rounded-md bg-indigo-600 px-3 text-[13px] font-medium text-white hover:bg-indigo-700 disabled:cursor-not-allowed disabled:bg-slate-300 disabled:text-slate-600";
const SECONDARY =
  "inline-flex h-8 items-center whitespace-nowrap rounded-md border border-slate-300 bg-white px-3 text-[13px] font-medium text-slate-800 hover:bg-slate-50 disabled:cursor-not-allowed disabled:bg-slate-50 disabled:text-slate-500";

const WORDS: TFailureWords = {
  forbidden: "Your role may not work on policy documents.",
  invalid: "The request was refused as it was sent.",
  signedOut: "Nothing changed.",
};

type TMay = { allowed: true } | { allowed: false; why: string };
const short = (hash: string | null) => (hash ? hash.slice(0, 12) : "–");
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** While the evaluation waits or runs, the page asks the server again every two seconds. */
function RefreshWhileRunning({ running }: { running: boolean }) {
  const router = useRouter();
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => router.refresh(), 2000);
    return () => clearInterval(timer);
  }, [running, router]);
  return null;
}

function StartForm({ documentId, label, primary }: { documentId: string; label: string; primary: boolean }) {
  const [state, run, pending] = useActionState((_prev: TActionResult<object> | null, form: FormData) => startEvaluationAction(form), null);
  const message = formMessage(state, () => null, WORDS);
  return (
    <form action={run} aria-label="Evaluate this version" className="space-y-1">
      <input type="hidden" name="documentId" value={documentId} />
      <button type="submit" disabled={pending} className={primary ? PRIMARY : SECONDARY}>
        {pending ? "Asking…" : label}
      </button>
      <p role="status" data-testid="evaluate-message" className="text-[13px] font-medium text-red-700 empty:hidden">
        {message?.text}
      </p>
    </form>
  );
}

/** The grading's progress: the current corpus first, then the one with this version published. */
function Progress({ latest }: { latest: TEvaluationView }) {
  const p = latest.progress;
  const done = p ? (p.corpus === "before" ? 0 : p.total) + p.done : 0;
  const total = p ? 2 * p.total : 1;
  const text = !p
    ? latest.status === "queued"
      ? "Waiting for the job queue to take it…"
      : "Setting up the grading databases…"
    : `${p.corpus === "before" ? "Grading the policies in effect now" : "Grading with this version published"}: ${p.done} of ${p.total}`;
  return (
    <div className="space-y-1">
      <progress aria-label="Evaluation progress" max={total} value={done} className="h-2 w-full accent-indigo-600" />
      <p role="status" className="text-[13px] text-slate-700">
        {text}. Asked for by {latest.startedBy} at {formatUtc(latest.createdAt)}; it usually takes a minute or two.
      </p>
    </div>
  );
}

function AcknowledgeForm({ evaluationId, regressions, may }: { evaluationId: string; regressions: number; may: TMay }) {
  const id = useId();
  const [state, run, pending] = useActionState(
    (_prev: TActionResult<object> | null, form: FormData) => acknowledgeRegressionsAction(form),
    null,
  );
  const message = formMessage(state, () => null, WORDS);
  return (
    <form action={run} aria-label="Acknowledge regressions" className="space-y-2 rounded-md border border-amber-200 bg-amber-50 p-3">
      <input type="hidden" name="evaluationId" value={evaluationId} />
      <label htmlFor={`${id}-note`} className="block text-[12px] font-medium text-slate-700">
        Note <span className="font-normal text-slate-500">– optional: why publishing over them is right</span>
      </label>
      <textarea
        id={`${id}-note`}
        name="note"
        rows={2}
        maxLength={500}
        disabled={!may.allowed}
        className="block w-full rounded-md border border-slate-300 bg-white px-2 py-1 text-[13px] disabled:bg-slate-50"
      />
      <button type="submit" disabled={!may.allowed || pending} aria-describedby={may.allowed ? undefined : `${id}-why`} className={PRIMARY}>
        {pending ? "Acknowledging…" : `Acknowledge ${plural(regressions, "regression")}`}
      </button>
      {may.allowed ? null : (
        <p id={`${id}-why`} className="text-[12px] text-amber-900">
          {may.why}
        </p>
      )}
      <p role="status" data-testid="acknowledge-message" className="text-[13px] font-medium text-red-700 empty:hidden">
        {message?.text}
      </p>
    </form>
  );
}

/** What publishing is told now, as far as the evaluation goes, in one line. */
function Verdict({ evaluation }: { evaluation: TVersionEvaluation }) {
  const { latest, gate } = evaluation;
  if (!latest || (latest.status !== "done" && gate === "evaluation_required"))
    return (
      <p className="rounded-md bg-amber-50 p-2 text-[13px] text-amber-900">
        Not evaluated: publishing needs a finished evaluation of exactly this content
        {evaluation.earlierContentEvaluated ? " (an earlier draft of this version was evaluated; that one does not count)" : ""}.
      </p>
    );
  if (latest.status !== "done") return null;
  const n = latest.regressions ?? 0;
  if (!n)
    return (
      <p className="rounded-md bg-emerald-50 p-2 text-[13px] text-emerald-900">
        No regressions: the evaluation lets this version be published.
      </p>
    );
  if (latest.acknowledged)
    return (
      <p data-testid="acknowledged" className="rounded-md bg-emerald-50 p-2 text-[13px] text-emerald-900">
        {plural(n, "regression")} acknowledged by <strong>{latest.acknowledged.by}</strong> at {formatUtc(latest.acknowledged.at)}
        {latest.acknowledged.note ? <>: “{latest.acknowledged.note}”</> : null}. The version may be published over them.
      </p>
    );
  return (
    <p className="rounded-md bg-red-50 p-2 text-[13px] font-medium text-red-900">
      {plural(n, "regression")}: publishing is refused until someone who may publish acknowledges them by name.
    </p>
  );
}

function Status({ documentId, evaluation, may }: { documentId: string; evaluation: TVersionEvaluation; may: TMay }) {
  const { latest, corpusHashNow } = evaluation;
  const running = latest?.status === "queued" || latest?.status === "running";
  const moved = latest?.status === "done" && latest.corpusHashBefore !== corpusHashNow;
  return (
    <div className="space-y-3">
      <RefreshWhileRunning running={running} />
      <Verdict evaluation={evaluation} />
      {running ? <Progress latest={latest!} /> : null}
      {latest?.status === "failed" ? (
        <p className="rounded-md bg-red-50 p-2 text-[13px] text-red-900">
          The evaluation failed: {latest.error}. Nothing was compared; evaluate it again.
        </p>
      ) : null}
      {moved ? (
        <p className="text-[13px] text-slate-700">
          The policies in effect changed since this evaluation (corpus <code className="font-mono">{short(latest!.corpusHashBefore)}</code>{" "}
          then, <code className="font-mono">{short(corpusHashNow)}</code> now): evaluate again to see what publishing changes today.
        </p>
      ) : null}
      {latest?.status === "done" && latest.regressions && !latest.acknowledged ? (
        <AcknowledgeForm evaluationId={latest.id} regressions={latest.regressions} may={may} />
      ) : null}
      {running ? null : <StartForm documentId={documentId} label={latest ? "Evaluate again" : "Evaluate this version"} primary={!latest} />}
    </div>
  );
}

export function EvaluationView(props: { documentId: string; evaluation: TVersionEvaluation; mayAcknowledge: TMay }) {
  const { latest } = props.evaluation;
  return (
    <Card
      id="evaluation"
      title="Evaluation before publishing"
      description="The labelled questions and the episodes, on the policies in effect and with this version published."
    >
      <div className="space-y-4">
        <Status documentId={props.documentId} evaluation={props.evaluation} may={props.mayAcknowledge} />
        {latest?.status === "done" && latest.results ? <EvaluationResults evaluation={latest} results={latest.results} /> : null}
      </div>
    </Card>
  );
}
