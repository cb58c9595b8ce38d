"use client";
// Evaluations a lead starts from /evals: the form (dataset, planner, model, trials), and the latest
// requests with their progress. While one waits or runs, the page asks the server again every two
// seconds; the server keeps serving meanwhile (the grading is a process of its own).
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useActionState, useEffect, useId } from "react";
import { formMessage, type TFailureWords } from "@/components/action-message";
import { formatUtc } from "@/components/format";
import type { TActionResult } from "@/lib/auth/action-result";
import type { TEvalRequestRow } from "@/lib/eval/agent-evaluation";
import { startAgentEvaluationAction } from "./actions";

const PRIMARY =
  "inline-flex h-8 items-center whitespace-nowrap rounded-md bg-indigo-600 px-3 text-[13px] font-medium text-white hover:bg-indigo-700 disabled:cursor-not-allowed disabled:bg-slate-300 disabled:text-slate-600";
const FIELD = "block h-8 w-full rounded-md border border-slate-300 bg-white px-2 text-[13px]";
const LABEL = "block text-[12px] font-medium text-slate-700";

const WORDS: TFailureWords = {
  forbidden: "Your role may not start evaluations.",
  invalid: "The evaluation was refused as it was asked for.",
  signedOut: "Nothing was started.",
};

function RefreshWhileRunning({ running }: { running: boolean }) {
  const router = useRouter();
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => router.refresh(), 2000);
    return () => clearInterval(timer);
  }, [running, router]);
  return null;
}

/** A dataset offered: a file of EVAL_DATASET_DIR, or the team dataset of promoted episodes. */
export interface TDatasetOption {
  value: string;
  label: string;
}

function StartForm({ datasets }: { datasets: TDatasetOption[] }) {
  const id = useId();
  const [state, run, pending] = useActionState(
    (_prev: TActionResult<object> | null, form: FormData) => startAgentEvaluationAction(form),
    null,
  );
  const message = formMessage(state, () => ({ tone: "ok", text: "Started: it is graded in the background, below." }), WORDS);
  return (
    <form action={run} aria-label="Start an evaluation" className="grid grid-cols-2 gap-3 md:grid-cols-[2fr_1fr_2fr_1fr_auto] md:items-end">
      <div className="col-span-2 md:col-span-1">
        <label htmlFor={`${id}-dataset`} className={LABEL}>
          Dataset
        </label>
        <select id={`${id}-dataset`} name="dataset" className={FIELD} defaultValue={datasets[0]?.value}>
          {datasets.map((d) => (
            <option key={d.value} value={d.value}>
              {d.label}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-planner`} className={LABEL}>
          Planner
        </label>
        <select id={`${id}-planner`} name="planner" className={FIELD} defaultValue="as-written">
          <option value="as-written">As each episode says</option>
          <option value="rule">Rule planner</option>
          <option value="model">Model planner</option>
        </select>
      </div>
      <div className="col-span-2 md:col-span-1">
        <label htmlFor={`${id}-model`} className={LABEL}>
          Model <span className="font-normal text-slate-500">– empty: the configured one</span>
        </label>
        <input id={`${id}-model`} name="model" maxLength={100} placeholder="LLM_MODEL" className={FIELD} />
      </div>
      <div>
        <label htmlFor={`${id}-trials`} className={LABEL}>
          Trials
        </label>
        <input id={`${id}-trials`} name="trials" type="number" min={1} max={10} defaultValue={1} required className={FIELD} />
      </div>
      <div className="self-end">
        <button type="submit" disabled={pending} className={PRIMARY}>
          {pending ? "Starting…" : "Start evaluation"}
        </button>
      </div>
      <p
        role="status"
        data-testid="start-evaluation-message"
        className={`col-span-2 text-[13px] font-medium empty:hidden md:col-span-5 ${message?.tone === "error" ? "text-red-700" : "text-emerald-700"}`}
      >
        {message?.text}
      </p>
    </form>
  );
}

function RequestRow({ r }: { r: TEvalRequestRow }) {
  const active = r.status === "queued" || r.status === "running";
  return (
    <li data-testid="eval-request" data-status={r.status} className="space-y-1 py-2 text-[13px]">
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <code className="font-mono text-[12px] break-all">{r.datasetPath}</code>
        <span className="text-slate-600">
          {r.planner === "as-written" ? "planner as written" : `${r.planner} planner`}
          {r.model ? `, ${r.model}` : ""}, {r.trials} trial{r.trials === 1 ? "" : "s"}
        </span>
        <span className="text-slate-500">
          by {r.startedBy ?? "–"} at <time dateTime={r.createdAt.toISOString()}>{formatUtc(r.createdAt, "minute")}</time>
        </span>
        <span
          className={`font-medium ${r.status === "failed" ? "text-red-700" : r.status === "done" ? "text-emerald-700" : "text-slate-800"}`}
        >
          {r.status}
        </span>
        {r.evalRunId ? (
          <Link href={`/evals/${r.evalRunId}`} className="font-medium text-indigo-700 hover:underline">
            Its run
          </Link>
        ) : null}
      </div>
      {active ? (
        <div className="space-y-1">
          <progress aria-label="Evaluation progress" max={r.total || 1} value={r.done} className="h-2 w-full accent-indigo-600" />
          <p role="status" className="text-[12px] text-slate-600">
            {r.status === "queued"
              ? "Waiting for the job queue to take it…"
              : r.total
                ? `${r.done} of ${r.total} episode trials graded`
                : "Setting up the grading databases…"}
          </p>
        </div>
      ) : null}
      {r.error ? <p className="text-[12px] break-words text-red-700">{r.error}</p> : null}
    </li>
  );
}

export function EvaluationRequests({ datasets, requests }: { datasets: TDatasetOption[]; requests: TEvalRequestRow[] }) {
  const running = requests.some((r) => r.status === "queued" || r.status === "running");
  return (
    <section aria-labelledby="start-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="start-heading" className="text-[13px] font-semibold text-slate-900">
        Start an evaluation
      </h2>
      {datasets.length ? (
        <StartForm datasets={datasets} />
      ) : (
        <p className="text-[13px] text-slate-600">No episode dataset to offer: EVAL_DATASET_DIR names no folder of *.jsonl datasets.</p>
      )}
      <RefreshWhileRunning running={running} />
      {requests.length ? (
        <ul aria-label="Evaluations started here" className="divide-y divide-slate-100">
          {requests.map((r) => (
            <RequestRow key={r.id} r={r} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}
