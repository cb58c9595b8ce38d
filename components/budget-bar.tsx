/** How much of one budget a run used: a labelled meter. */
export function BudgetBar({ label, used, limit, unit }: { label: string; used: number; limit: number; unit: string }) {
  const share = limit > 0 ? Math.min(1, used / limit) : 0;
  const tone = share >= 1 ? "bg-red-500" : share >= 0.8 ? "bg-amber-500" : "bg-indigo-500";
  return (
    <div className="min-w-0">
      <div className="flex justify-between text-[11px] text-slate-500">
        <span>{label}</span>
        <span className="tabular-nums">
          {used.toLocaleString("en-US")} / {limit.toLocaleString("en-US")} {unit}
        </span>
      </div>
      <div role="meter" aria-label={`${label} used`} aria-valuemin={0} aria-valuemax={limit} aria-valuenow={used} className="mt-1 h-1.5 overflow-hidden rounded-full bg-slate-100">
        <div className={`h-full ${tone}`} style={{ width: `${Math.round(share * 100)}%` }} />
      </div>
    </div>
  );
}
