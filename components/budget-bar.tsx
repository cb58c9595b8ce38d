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
      <div
        role="meter"
        aria-label={`${label} used`}
        aria-valuemin={0}
        aria-valuemax={limit}
        aria-valuenow={used}
        className="mt-1 h-1.5 overflow-hidden rounded-full bg-slate-100"
      >
        <div className={`h-full ${tone}`} style={{ width: `${Math.round(share * 100)}%` }} />
      </div>
    </div>
  );
}

/** A run's three budgets – steps, tokens, wall time – each used against its limit. */
export function RunBudgets({ run }: { run: { stepsUsed: number; tokensUsed: number; elapsedMs: number; budgets: unknown } }) {
  const budgets = run.budgets as { maxSteps: number; maxTokens: number; maxWallMs: number };
  return (
    <div className="grid grid-cols-1 gap-3 px-4 py-3 sm:grid-cols-3">
      <BudgetBar label="Steps" used={run.stepsUsed} limit={budgets.maxSteps} unit="" />
      <BudgetBar label="Tokens" used={run.tokensUsed} limit={budgets.maxTokens} unit="" />
      <BudgetBar label="Time" used={run.elapsedMs} limit={budgets.maxWallMs} unit="ms" />
    </div>
  );
}
