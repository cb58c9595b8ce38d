import type { TTraceStep } from "@/lib/agent/run-journal";
import { Cell, CardRow, ResponsiveTable, type TColumn } from "./responsive-table";
import { ReasonText } from "./status-badge";

export interface TTraceRow {
  step: number;
  action: string;
  args: unknown;
  outcome: string;
  reason: string | null;
  result: unknown;
  policyDecision: unknown;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number;
  model: string | null;
}

/** A tone for every way a step can end (TTraceStep["outcome"]). */
const OUTCOME_TONE: Readonly<Record<string, string>> = {
  ok: "text-emerald-700",
  rewritten: "text-amber-700",
  escalated: "text-amber-700",
  blocked: "text-red-700",
  timeout: "text-red-700",
  error: "text-red-700",
  invalid_output: "text-red-700",
} satisfies Record<TTraceStep["outcome"], string>;

const COLUMNS: readonly TColumn[] = ["Step", "Action", "Arguments", "Result", "Policy", { label: "Tokens", align: "right" }, { label: "Latency", align: "right" }];

function compact(value: unknown, max = 140): string {
  const text = JSON.stringify(value ?? null);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function policyText(decision: unknown): string {
  if (!decision || typeof decision !== "object") return "–";
  const d = decision as { decision?: string; reasons?: string[] };
  return d.decision ? `${d.decision}${d.reasons?.length ? ` (${d.reasons.join(", ")})` : ""}` : "–";
}

/** One run's steps, in order: what the agent asked for, what the runtime and the policy made of it.
 * A table on a wide screen; on a phone a card per step, its arguments and result across the card. */
export function TraceTimeline({ steps }: { steps: TTraceRow[] }) {
  if (!steps.length) return <p className="text-[13px] text-slate-500">No agent steps: this run never entered the agent loop.</p>;
  return (
    <ResponsiveTable caption="Trace: one row per step" columns={COLUMNS} wrapHeaders>
      {steps.map((s) => (
        <CardRow key={s.step} className="align-top">
          <Cell rowHeader className="col-span-2 font-normal md:w-12 md:tabular-nums md:text-slate-500">
            <span className="md:hidden">Step </span>
            {s.step}
          </Cell>
          <Cell label="Action" className="col-span-2 min-w-0 md:col-span-1">
            <code className="font-mono break-all">{s.action}</code>
            <div className={`text-[11px] ${OUTCOME_TONE[s.outcome] ?? "text-slate-600"}`}>
              {s.outcome}
              {s.reason ? (
                <>
                  {" · "}
                  <ReasonText reason={s.reason} />
                </>
              ) : null}
            </div>
          </Cell>
          <Cell label="Arguments" className="col-span-2 min-w-0 font-mono text-[11px] break-all text-slate-600 md:col-span-1 md:max-w-56">
            {compact(s.args, 100)}
          </Cell>
          <Cell label="Result" className="col-span-2 min-w-0 md:col-span-1 md:max-w-80">
            <details>
              <summary className="cursor-pointer font-mono text-[11px] break-all text-slate-600">{compact(s.result, 90)}</summary>
              {/* Focusable: a keyboard scrolls it when it is longer than its box. */}
              <pre tabIndex={0} className="mt-1 max-h-64 overflow-auto rounded bg-slate-50 p-2 text-[11px] whitespace-pre-wrap break-all">
                {JSON.stringify(s.result, null, 2)}
              </pre>
            </details>
          </Cell>
          <Cell label="Policy" className="col-span-2 min-w-0 text-[11px] text-slate-600 md:col-span-1">
            {policyText(s.policyDecision)}
          </Cell>
          <Cell label="Tokens" className="tabular-nums text-slate-600 md:text-right">
            {s.promptTokens + s.completionTokens}
          </Cell>
          <Cell label="Latency" className="tabular-nums whitespace-nowrap text-slate-600 md:text-right">
            {s.latencyMs} ms
          </Cell>
        </CardRow>
      ))}
    </ResponsiveTable>
  );
}
