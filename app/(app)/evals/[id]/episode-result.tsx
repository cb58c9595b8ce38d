import { OutcomeFields, PathDiff } from "@/components/eval-path-diff";
import { episodeComparison } from "@/lib/eval/episode-diff";
import type { TEpisodeResultRow } from "@/lib/eval/list-eval-runs";

function Comparison({ row, label }: { row: TEpisodeResultRow; label: string }) {
  const { path, fields } = episodeComparison(row);
  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
      <div className="min-w-0">
        <h4 className="mb-1 text-[12px] font-medium text-slate-700">Action path</h4>
        <PathDiff diff={path} caption={`${label}: expected and actual action paths, step by step`} />
      </div>
      <div className="min-w-0">
        <h4 className="mb-1 text-[12px] font-medium text-slate-700">Outcome</h4>
        <OutcomeFields fields={fields} caption={`${label}: expected and actual outcome`} />
      </div>
    </div>
  );
}

/** A failed row, open: what the grader said, then expected and actual side by side. */
export function FailedEpisode({ row, showTrial }: { row: TEpisodeResultRow; showTrial: boolean }) {
  const label = `${row.episodeId}${showTrial ? `, trial ${row.trial}` : ""}`;
  const id = `episode-${row.id}`;
  return (
    <article aria-labelledby={id} className="rounded-lg border border-red-200 bg-white">
      <header className="flex flex-wrap items-center gap-2 border-b border-red-100 bg-red-50/60 px-4 py-2">
        <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-medium text-red-800 ring-1 ring-red-200 ring-inset">Failed</span>
        <h3 id={id} className="min-w-0 font-mono text-[13px] font-semibold break-all text-slate-900">
          {row.episodeId}
          {showTrial ? <span className="ml-1 font-sans font-normal text-slate-500">trial {row.trial}</span> : null}
        </h3>
      </header>
      <div className="space-y-3 px-4 py-3">
        {row.explanation ? (
          <p className="text-[12px] break-words text-slate-700">
            <span className="font-medium text-slate-900">Grader: </span>
            {row.explanation}
          </p>
        ) : null}
        <Comparison row={row} label={label} />
      </div>
    </article>
  );
}

/** A passing row, folded: one line, opening onto the same comparison. */
export function PassedEpisode({ row, showTrial }: { row: TEpisodeResultRow; showTrial: boolean }) {
  const label = `${row.episodeId}${showTrial ? `, trial ${row.trial}` : ""}`;
  return (
    <details className="group rounded-lg border border-slate-200 bg-white">
      <summary className="flex cursor-pointer list-none items-center gap-2 px-4 py-2 [&::-webkit-details-marker]:hidden">
        <span aria-hidden="true" className="text-slate-400 transition-transform group-open:rotate-90">
          ▸
        </span>
        <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-800 ring-1 ring-emerald-200 ring-inset">
          Passed
        </span>
        <span className="min-w-0 font-mono text-[13px] break-all text-slate-900">{row.episodeId}</span>
        {showTrial ? <span className="text-[12px] text-slate-500">trial {row.trial}</span> : null}
      </summary>
      <div className="border-t border-slate-100 px-4 py-3">
        <Comparison row={row} label={label} />
      </div>
    </details>
  );
}
