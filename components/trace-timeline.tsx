import type { TComparableStep, TStepField } from "@/lib/agent/compare-runs";
import { Differs, DurationBar, formatMs, PolicyDecision, StepOutcome, StepPayload, tokenText } from "./trace-step";

export type TTraceRow = TComparableStep & { model: string | null };

/**
 * One run's steps, in order, as a timeline: each step a card with its duration as a bar placed
 * where it sat among the run's steps, its tokens, how it ended and what the policy decided, in words,
 * then its arguments and result folded, the fields a reviewer looks for first on top. The same
 * card at every width; nothing in it is wider than a 320 px phone.
 */
export function TraceTimeline({ steps, label = "Trace: one card per step" }: { steps: TTraceRow[]; label?: string }) {
  if (!steps.length) return <p className="text-[13px] text-slate-500">No agent steps: this run never entered the agent loop.</p>;
  const totalMs = steps.reduce((sum, s) => sum + s.latencyMs, 0);
  // Where each step starts among the steps' time: the sum of the ones before it.
  const starts = steps.map((_, i) => steps.slice(0, i).reduce((sum, s) => sum + s.latencyMs, 0));
  return (
    <ol aria-label={label} className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white">
      {steps.map((s, i) => (
        <li key={s.step} aria-label={`Step ${s.step}: ${s.action}`} className="min-w-0 space-y-2 px-3 py-2.5">
          <TraceStepCard step={s} startMs={starts[i]!} totalMs={totalMs} />
        </li>
      ))}
    </ol>
  );
}

/**
 * One step's card: the timeline's row, and one side of a compared step. `differs` marks the parts
 * that differ from the other run's step (a comparison); `numbered: false` leaves out the step's
 * number where the comparison already shows it.
 */
export function TraceStepCard({
  step: s,
  startMs,
  totalMs,
  differs = [],
  numbered = true,
}: {
  step: TTraceRow;
  startMs: number;
  totalMs: number;
  differs?: readonly TStepField[];
  numbered?: boolean;
}) {
  const share = totalMs > 0 ? Math.round((s.latencyMs / totalMs) * 100) : 0;
  const has = (f: TStepField) => differs.includes(f);
  return (
    <>
      <div className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5">
        {numbered ? <span className="text-[12px] tabular-nums text-slate-500">Step {s.step}</span> : null}
        <Differs on={has("action")}>
          <code className="min-w-0 font-mono text-[13px] font-semibold break-all text-slate-900">{s.action}</code>
        </Differs>
        <Differs on={has("outcome") || has("reason")}>
          <StepOutcome outcome={s.outcome} reason={s.reason} />
        </Differs>
      </div>
      <DurationBar startMs={startMs} latencyMs={s.latencyMs} totalMs={totalMs} />
      <dl className="grid grid-cols-2 gap-x-3 gap-y-1 text-[12px] sm:grid-cols-[auto_auto_minmax(0,1fr)]">
        <div className="min-w-0">
          <dt className="text-[11px] text-slate-500">Duration</dt>
          <dd className="tabular-nums text-slate-800" data-testid="step-duration">
            {formatMs(s.latencyMs)} <span className="text-slate-500">({share}% of the steps)</span>
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="text-[11px] text-slate-500">Tokens</dt>
          <dd className="tabular-nums text-slate-800" data-testid="step-tokens">
            {tokenText(s)}
            {s.model ? <span className="block font-mono text-[11px] break-all text-slate-500">{s.model}</span> : null}
          </dd>
        </div>
        <div className="col-span-2 min-w-0 sm:col-span-1">
          <dt className="text-[11px] text-slate-500">Policy</dt>
          <dd className="text-slate-700" data-testid="step-policy">
            <Differs on={has("policy")}>
              <PolicyDecision decision={s.policyDecision} />
            </Differs>
          </dd>
        </div>
      </dl>
      <div className="grid grid-cols-1 gap-x-4 gap-y-1 lg:grid-cols-2">
        <StepPayload label="Arguments" value={s.args} differs={has("arguments")} />
        <StepPayload label="Result" value={s.result} differs={has("result")} />
      </div>
    </>
  );
}
