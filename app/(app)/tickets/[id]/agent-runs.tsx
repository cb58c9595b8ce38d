// The ticket page's agent runs: the latest, newest first, each with its budgets and its trace, and
// a way to compare it with the run before it.
import Link from "next/link";
import { RunBudgets } from "@/components/budget-bar";
import { ReasonText, StatusBadge } from "@/components/status-badge";
import { TraceTimeline } from "@/components/trace-timeline";
import type { TTicketDetail } from "@/lib/queue/load-ticket-detail";
import { ANNOTATION_REASON_LABELS, type TAnnotationReason } from "@/lib/contracts/reason-codes";
import { AnnotateForm, AssignRunForm, SaveEpisodeButton } from "../../annotations/annotation-forms";

/** Who is looking, for the annotation controls: a lead or admin hands a run to `people`; others take it. */
export interface TAnnotator {
  me: string;
  people: { id: string; name: string }[] | null;
}

type TRun = TTicketDetail["runs"][number];

/** `runCount`: every run of the ticket, of which `runs` are the latest. */
export function AgentRuns({
  ticketId,
  runs,
  runCount,
  annotator,
}: {
  ticketId: string;
  runs: readonly TRun[];
  runCount: number;
  annotator: TAnnotator;
}) {
  return (
    <section aria-labelledby="runs-heading" className="space-y-2">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="runs-heading" className="text-[13px] font-semibold text-slate-900">
          Agent runs {runCount > runs.length ? `(latest ${runs.length} of ${runCount})` : `(${runCount})`}
        </h2>
        {runCount >= 2 ? (
          <Link href={`/tickets/${ticketId}/compare`} className="text-[13px] font-medium text-indigo-700 hover:underline">
            Compare runs
          </Link>
        ) : null}
      </div>
      {runs.length ? (
        runs.map((run, i) => <RunSummary key={run.id} run={run} previous={runs[i + 1]} annotator={annotator} />)
      ) : (
        <p className="text-[13px] text-slate-500">No runs yet.</p>
      )}
    </section>
  );
}

/** `previous`: the run before it on this ticket, to compare it with. */
function RunSummary({ run, previous, annotator }: { run: TRun; previous?: TRun; annotator: TAnnotator }) {
  return (
    <article
      id={`run-${run.id}`}
      aria-label={`Run of ${run.startedAt.toISOString()}`}
      className="scroll-mt-4 rounded-lg border border-slate-200 bg-white"
    >
      <header className="flex flex-wrap items-center gap-2 border-b border-slate-100 px-4 py-2 text-[13px]">
        {run.mode === "simulate" ? (
          <span className="rounded bg-violet-100 px-1.5 py-0.5 text-[11px] font-semibold uppercase tracking-wide text-violet-800">
            Simulated
          </span>
        ) : null}
        <StatusBadge status={run.status} />
        <ReasonText reason={run.reason} />
        <span className="ml-auto text-[12px] text-slate-500">
          {run.planner} planner · {run.agentVersion} · {run.startedAt.toISOString().replace("T", " ").slice(0, 19)} UTC
          {run.startedBy ? ` · by ${run.startedBy.name}` : ""}
        </span>
      </header>
      <RunBudgets run={run} />
      <RunFeedback feedback={run.feedback} />
      <div className="px-4 pb-3">
        <TraceTimeline
          steps={run.traceEvents}
          label={`Trace of the run of ${run.startedAt.toISOString().replace("T", " ").slice(0, 19)} UTC, one card per step`}
        />
        {previous ? (
          <p className="mt-2 text-[12px]">
            <Link href={`/tickets/${run.ticketId}/compare?a=${previous.id}&b=${run.id}`} className="text-indigo-700 hover:underline">
              Compare with the run before it
            </Link>
          </p>
        ) : null}
      </div>
      {run.status !== "running" ? <RunAnnotation run={run} annotator={annotator} /> : null}
    </article>
  );
}

/** A person's judgement of the run: shown once made, with Save as episode; the form to make or change it. */
function RunAnnotation({ run, annotator }: { run: TRun; annotator: TAnnotator }) {
  const a = run.annotation?.verdict ? run.annotation : null;
  return (
    <div className="space-y-2 border-t border-slate-100 px-4 py-3" data-testid="run-annotation">
      {!a ? (
        <div className="flex flex-wrap items-center gap-2 text-[13px] text-slate-600">
          <span>Annotation: {run.annotation?.assignee ? `assigned to ${run.annotation.assignee.name}` : "unassigned"}</span>
          <AssignRunForm runId={run.id} assigneeId={run.annotation?.assigneeId ?? null} me={annotator.me} people={annotator.people} />
        </div>
      ) : null}
      {a ? (
        <div className="flex flex-wrap items-center gap-3 text-[13px]">
          <p>
            <span className="font-medium">Judged {a.verdict}</span>
            {a.reason ? ` – ${ANNOTATION_REASON_LABELS[a.reason as TAnnotationReason] ?? a.reason} (${a.reason})` : ""}
            {a.correctedAmountCents !== null ? `; corrected amount ${(a.correctedAmountCents / 100).toFixed(2)} USD` : ""}
          </p>
          {a.candidate ? (
            <p className="text-slate-600">
              Saved as the episode <code className="font-mono text-[12px]">{a.candidate.episodeId}</code> ({a.candidate.status})
            </p>
          ) : (
            <SaveEpisodeButton runId={run.id} />
          )}
        </div>
      ) : null}
      {a?.correctedReply ? (
        <p className="whitespace-pre-wrap wrap-anywhere text-[13px] text-slate-700">Corrected reply: “{a.correctedReply}”</p>
      ) : null}
      <details className="text-[13px]">
        <summary className="cursor-pointer font-medium text-indigo-700">{a ? "Change the judgement" : "Judge this run"}</summary>
        <div className="mt-2">
          <AnnotateForm runId={run.id} />
        </div>
      </details>
    </div>
  );
}

/** The reviewers' feedback the run read, quoted: what it was told, on the record beside what it did. */
function RunFeedback({ feedback }: { feedback: TRun["feedback"] }) {
  const notes = Array.isArray(feedback) ? (feedback as { id: string; text: string }[]) : [];
  if (!notes.length) return null;
  return (
    <div className="mx-4 mb-2 rounded-md border border-violet-200 bg-violet-50/60 px-3 py-2" data-testid="run-feedback">
      <p className="text-[12px] font-semibold text-violet-900">
        Reviewer&apos;s feedback this run read (quoted as data; it grants nothing)
      </p>
      <ul className="mt-1 space-y-1">
        {notes.map((n) => (
          <li key={n.id} className="whitespace-pre-wrap wrap-anywhere text-[13px] text-slate-800">
            “{n.text}”
          </li>
        ))}
      </ul>
    </div>
  );
}
