// What an evaluation found, for the evaluation panel: the counts before and after, then each list –
// answers lost and episodes now failing first and open (the regressions), then answers gained,
// citations moved with the answer kept, episodes now passing. Citations after publishing are shown
// as they compare: the version this one replaces is named by its own citation.
import { formatUtc } from "@/components/format";
import type { TEpisodeFlip, TEvaluationResults, TQuestionChange } from "@/lib/contracts/policy-evaluation";
import type { TEvaluationView } from "@/lib/documents/evaluate-load";

const cited = (citations: string[], abstain: string | null) =>
  citations.length ? citations.join(", ") : `nothing${abstain ? ` (${abstain.replaceAll("_", " ")})` : ""}`;

function Count({ label, before, after, total }: { label: string; before: number; after: number; total: number }) {
  const tone = after < before ? "text-red-800" : after > before ? "text-emerald-800" : "text-slate-900";
  return (
    <div className="rounded-md border border-slate-200 px-3 py-2">
      <dt className="text-[12px] text-slate-500">{label}</dt>
      <dd className={`text-[13px] font-medium ${tone}`}>
        {before} → {after} <span className="font-normal text-slate-500">of {total}</span>
      </dd>
    </div>
  );
}

function QuestionRows({ rows }: { rows: TQuestionChange[] }) {
  return (
    <ul className="divide-y divide-slate-100">
      {rows.map((q) => (
        <li key={q.id} className="py-1.5 text-[13px]">
          <code className="font-mono text-[12px] text-slate-900">{q.id}</code>
          <span className="text-slate-500"> · {q.answerable ? `answered by ${q.expected}` : "no policy answers it"}</span>
          <div className="text-[12px] text-slate-700">
            before: <span className="font-mono">{cited(q.before, q.abstainBefore)}</span> → after:{" "}
            <span className="font-mono">{cited(q.after, q.abstainAfter)}</span>
          </div>
        </li>
      ))}
    </ul>
  );
}

function EpisodeRows({ rows }: { rows: TEpisodeFlip[] }) {
  return (
    <ul className="divide-y divide-slate-100">
      {rows.map((e) => (
        <li key={e.id} className="py-1.5 text-[13px]">
          <span className="font-medium text-slate-900">{e.title}</span> <code className="font-mono text-[11px] text-slate-500">{e.id}</code>
          {e.explanation ? <p className="text-[12px] whitespace-pre-wrap text-slate-700">{e.explanation}</p> : null}
        </li>
      ))}
    </ul>
  );
}

/** One list of changes, open when it holds regressions; an empty list says so in its summary. */
function Changes({
  title,
  count,
  regression,
  children,
}: {
  title: string;
  count: number;
  regression?: boolean;
  children: React.ReactNode;
}) {
  return (
    <details open={regression && count > 0} className="rounded-md border border-slate-200">
      <summary className={`cursor-pointer px-3 py-1.5 text-[13px] font-medium ${regression && count ? "text-red-800" : "text-slate-800"}`}>
        {title}: {count}
      </summary>
      {count ? <div className="border-t border-slate-100 px-3">{children}</div> : null}
    </details>
  );
}

export function EvaluationResults({ evaluation, results }: { evaluation: TEvaluationView; results: TEvaluationResults }) {
  const { questions, episodes, renamed, gradedWith } = results;
  return (
    <section aria-label="What publishing changes" className="space-y-3">
      <dl className="grid grid-cols-1 gap-2 sm:grid-cols-2">
        <Count
          label="Questions answered as labelled"
          before={questions.passedBefore}
          after={questions.passedAfter}
          total={questions.total}
        />
        <Count label="Episodes passing" before={episodes.passedBefore} after={episodes.passedAfter} total={episodes.total} />
      </dl>
      <div className="space-y-2">
        <Changes title="Answers lost" count={questions.lost.length} regression>
          <QuestionRows rows={questions.lost} />
        </Changes>
        <Changes title="Episodes that fail after publishing" count={episodes.toFail.length} regression>
          <EpisodeRows rows={episodes.toFail} />
        </Changes>
        <Changes title="Answers gained" count={questions.gained.length}>
          <QuestionRows rows={questions.gained} />
        </Changes>
        <Changes title="Citations moved, answer kept" count={questions.moved.length}>
          <QuestionRows rows={questions.moved} />
        </Changes>
        <Changes title="Episodes that pass after publishing" count={episodes.toPass.length}>
          <EpisodeRows rows={episodes.toPass} />
        </Changes>
      </div>
      <p className="text-[12px] text-slate-500">
        Finished {evaluation.finishedAt ? formatUtc(evaluation.finishedAt) : "–"}, asked for by {evaluation.startedBy}.{" "}
        {renamed ? `${renamed.to} replaces ${renamed.from}: labels naming it count for this version. ` : ""}
        Corpus <code className="font-mono">{evaluation.corpusHashBefore?.slice(0, 12)}</code> →{" "}
        <code className="font-mono">{evaluation.corpusHashAfter?.slice(0, 12)}</code>; {gradedWith.questionSetVersion},{" "}
        {gradedWith.datasetVersion}, {gradedWith.graderVersion}.
      </p>
    </section>
  );
}
