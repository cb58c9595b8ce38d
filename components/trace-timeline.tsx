import type { TTraceStep } from "@/lib/agent/run-journal";
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

function compact(value: unknown, max = 140): string {
  const text = JSON.stringify(value ?? null);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function policyText(decision: unknown): string {
  if (!decision || typeof decision !== "object") return "–";
  const d = decision as { decision?: string; reasons?: string[] };
  return d.decision ? `${d.decision}${d.reasons?.length ? ` (${d.reasons.join(", ")})` : ""}` : "–";
}

/** One run's steps, in order: what the agent asked for, what the runtime and the policy made of it. */
export function TraceTimeline({ steps }: { steps: TTraceRow[] }) {
  if (!steps.length) return <p className="text-[13px] text-slate-500">No agent steps: this run never entered the agent loop.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-[12px]">
        <caption className="sr-only">Trace: one row per step</caption>
        <thead className="text-slate-500">
          <tr className="border-b border-slate-200">
            <th scope="col" className="py-1.5 pr-2 font-medium">Step</th>
            <th scope="col" className="py-1.5 pr-2 font-medium">Action</th>
            <th scope="col" className="py-1.5 pr-2 font-medium">Arguments</th>
            <th scope="col" className="py-1.5 pr-2 font-medium">Result</th>
            <th scope="col" className="py-1.5 pr-2 font-medium">Policy</th>
            <th scope="col" className="py-1.5 pr-2 text-right font-medium">Tokens</th>
            <th scope="col" className="py-1.5 text-right font-medium">Latency</th>
          </tr>
        </thead>
        <tbody>
          {steps.map((s) => (
            <tr key={s.step} className="border-b border-slate-100 align-top last:border-0">
              <td className="py-1.5 pr-2 tabular-nums text-slate-500">{s.step}</td>
              <td className="py-1.5 pr-2">
                <code className="font-mono">{s.action}</code>
                <div className={`text-[11px] ${OUTCOME_TONE[s.outcome] ?? "text-slate-600"}`}>
                  {s.outcome}
                  {s.reason ? (
                    <>
                      {" · "}
                      <ReasonText reason={s.reason} />
                    </>
                  ) : null}
                </div>
              </td>
              <td className="max-w-56 break-all py-1.5 pr-2 font-mono text-[11px] text-slate-600">{compact(s.args, 100)}</td>
              <td className="max-w-80 py-1.5 pr-2">
                <details>
                  <summary className="cursor-pointer break-all font-mono text-[11px] text-slate-600">{compact(s.result, 90)}</summary>
                  <pre className="mt-1 max-h-64 overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-2 text-[11px]">{JSON.stringify(s.result, null, 2)}</pre>
                </details>
              </td>
              <td className="py-1.5 pr-2 text-[11px] text-slate-600">{policyText(s.policyDecision)}</td>
              <td className="py-1.5 pr-2 text-right tabular-nums text-slate-600">{s.promptTokens + s.completionTokens}</td>
              <td className="py-1.5 text-right tabular-nums text-slate-600">{s.latencyMs} ms</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
