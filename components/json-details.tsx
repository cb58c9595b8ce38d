/** A JSON value in one compact line; when it is long, the line opens (keyboard too) onto the whole
 * value, indented. */
export function JsonDetails({ value, label, max = 72 }: { value: unknown; label: string; max?: number }) {
  if (value === null || value === undefined) return <span className="text-slate-400">–</span>;
  const compact = JSON.stringify(value);
  if (compact.length <= max) return <code className="font-mono text-[12px] break-all text-slate-700">{compact}</code>;
  return (
    <details className="group">
      <summary className="cursor-pointer list-none rounded-sm marker:hidden [&::-webkit-details-marker]:hidden">
        <span aria-hidden="true" className="mr-1 inline-block text-slate-400 transition-transform group-open:rotate-90">
          ▸
        </span>
        <code className="font-mono text-[12px] break-all text-slate-700">{compact.slice(0, max)}…</code>
        <span className="sr-only"> (show all of {label})</span>
      </summary>
      {/* Focusable: a keyboard scrolls it when it is longer than its box. */}
      <pre
        tabIndex={0}
        className="mt-1 max-h-80 max-w-xl overflow-auto rounded bg-slate-50 p-2 font-mono text-[12px] whitespace-pre-wrap break-all text-slate-800"
      >
        {JSON.stringify(value, null, 2)}
      </pre>
    </details>
  );
}
