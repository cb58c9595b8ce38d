import type { TFieldComparison, TPathDiff } from "@/lib/eval/episode-diff";

/**
 * The expected and actual action paths side by side, aligned by step. The first differing step is
 * marked in words ("first difference") and colour; later differing steps carry a ≠.
 */
export function PathDiff({
  diff,
  caption,
  labels = ["Expected", "Actual"],
}: {
  diff: TPathDiff;
  caption: string;
  labels?: readonly [string, string];
}) {
  if (!diff.steps.length) return <p className="text-[12px] text-slate-500">Both paths are empty: the run never entered the agent loop.</p>;
  return (
    <table className="w-full table-fixed text-left text-[11px] sm:text-[12px]">
      <caption className="sr-only">{caption}</caption>
      <thead className="text-slate-500">
        <tr className="border-b border-slate-200">
          <th scope="col" className="w-14 py-1 pr-2 pl-2 font-medium sm:w-36">
            Step
          </th>
          <th scope="col" className="py-1 pr-2 font-medium">
            {labels[0]}
          </th>
          <th scope="col" className="py-1 font-medium">
            {labels[1]}
          </th>
        </tr>
      </thead>
      <tbody>
        {diff.steps.map((s) => {
          const first = s.step === diff.firstDifference;
          return (
            <tr
              key={s.step}
              data-first-difference={first ? "true" : undefined}
              className={`border-b border-slate-100 align-top last:border-0 ${first ? "bg-red-50" : !s.same ? "bg-amber-50/60" : ""}`}
            >
              <th
                scope="row"
                className={`py-1 pr-2 font-normal tabular-nums ${first ? "border-l-2 border-red-500 pl-1.5 text-red-800" : "pl-2 text-slate-500"}`}
              >
                {s.step}
                {first ? (
                  <span className="block text-[10px] font-semibold tracking-wide uppercase sm:ml-1 sm:inline">first difference</span>
                ) : !s.same ? (
                  <span className="ml-1 text-amber-700">
                    <span aria-hidden="true">≠</span>
                    <span className="sr-only"> (differs)</span>
                  </span>
                ) : null}
              </th>
              <td className={`py-1 pr-2 font-mono break-all ${s.expected === null ? "text-slate-400 italic" : "text-slate-800"}`}>
                {s.expected ?? "(end)"}
              </td>
              <td
                className={`py-1 font-mono break-all ${s.actual === null ? "text-slate-400 italic" : s.same ? "text-slate-800" : "font-semibold text-red-800"}`}
              >
                {s.actual ?? "(end)"}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** Status, reason, citations, refunds and the optional checks, expected beside actual. */
export function OutcomeFields({ fields, caption }: { fields: TFieldComparison[]; caption: string }) {
  return (
    <table className="w-full table-fixed text-left text-[11px] sm:text-[12px]">
      <caption className="sr-only">{caption}</caption>
      <thead className="text-slate-500">
        <tr className="border-b border-slate-200">
          <th scope="col" className="w-20 py-1 pr-2 pl-2 font-medium sm:w-36">
            Field
          </th>
          <th scope="col" className="py-1 pr-2 font-medium">
            Expected
          </th>
          <th scope="col" className="py-1 font-medium">
            Actual
          </th>
        </tr>
      </thead>
      <tbody>
        {fields.map((f) => (
          <tr key={f.field} className={`border-b border-slate-100 align-top last:border-0 ${f.same ? "" : "bg-red-50"}`}>
            <th
              scope="row"
              className={`py-1 pr-2 font-normal ${f.same ? "pl-2 text-slate-500" : "border-l-2 border-red-500 pl-1.5 text-red-800"}`}
            >
              {f.field}
              {f.same ? null : <span className="sr-only"> (differs)</span>}
            </th>
            <td className="py-1 pr-2 font-mono break-all text-slate-800">{f.expected}</td>
            <td className={`py-1 font-mono break-all ${f.same ? "text-slate-800" : "font-semibold text-red-800"}`}>{f.actual}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
