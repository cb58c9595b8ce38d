// The parts of one trace step a person reads: how it ended, what the policy gate decided, how long it
// took and what it cost, and its arguments and result as fields, the ones a reviewer looks for first
// on top. Shared by a run's timeline and the page comparing two runs.
import type { ReactNode } from "react";
import type { TTraceStep } from "@/lib/agent/run-journal";
import { fieldSummary, readableFields } from "@/lib/agent/trace-fields";
import { ACTION_POLICY_REASON_LABELS } from "@/lib/policy/evaluate-action";
import type { TActionPolicyReason } from "@/lib/contracts/reason-codes";
import { ReasonText } from "./status-badge";

/** A part of a compared step that differs from the other run's: marked in colour and, for a screen reader, in words. */
export function Differs({ on, children }: { on: boolean; children: ReactNode }) {
  if (!on) return <>{children}</>;
  return (
    <span className="min-w-0 rounded bg-amber-100 px-1 ring-1 ring-amber-300" data-differs="true">
      {children}
      <span className="sr-only"> (differs)</span>
    </span>
  );
}

/** How a step ended, in words and a tone (TTraceStep["outcome"]). */
const OUTCOMES = {
  ok: { label: "Done", tone: "text-emerald-700" },
  rewritten: { label: "Rewritten by the policy", tone: "text-amber-700" },
  escalated: { label: "Handed to a person by the policy", tone: "text-amber-700" },
  blocked: { label: "Blocked", tone: "text-red-700" },
  timeout: { label: "Timed out", tone: "text-red-700" },
  error: { label: "Failed", tone: "text-red-700" },
  invalid_output: { label: "Invalid output", tone: "text-red-700" },
} satisfies Record<TTraceStep["outcome"], { label: string; tone: string }>;

export function StepOutcome({ outcome, reason }: { outcome: string; reason: string | null }) {
  const known = OUTCOMES[outcome as TTraceStep["outcome"]];
  return (
    <span className={`text-[12px] ${known?.tone ?? "text-slate-600"}`}>
      {known?.label ?? outcome}
      {reason ? (
        <>
          {": "}
          <ReasonText reason={reason} />
        </>
      ) : null}
    </span>
  );
}

const DECISION_WORDS: Record<string, string> = {
  allow: "Allowed",
  deny: "Denied",
  rewrite: "Rewritten",
  escalate: "Escalated to a person",
};

function reasonWords(code: string): string {
  return code in ACTION_POLICY_REASON_LABELS ? ACTION_POLICY_REASON_LABELS[code as TActionPolicyReason] : code;
}

/** The policy gate's decision in words, its reason codes beside them; a rewrite names what the step became. */
export function PolicyDecision({ decision }: { decision: unknown }) {
  const d =
    decision && typeof decision === "object"
      ? (decision as { decision?: string; reasons?: string[]; action?: { action?: string; args?: unknown } })
      : null;
  if (!d?.decision) return <span className="text-slate-500">No decision: the step stopped before the policy gate</span>;
  const reasons = (d.reasons ?? []).filter((r) => r !== "allowed");
  return (
    <span>
      <span className="font-medium text-slate-800">{DECISION_WORDS[d.decision] ?? d.decision}</span>
      {reasons.map((r) => (
        <span key={r}>
          {": "}
          {reasonWords(r)} <code className="font-mono text-[11px] text-slate-500">{r}</code>
        </span>
      ))}
      {d.decision === "rewrite" && d.action?.action ? (
        <span className="text-slate-600">
          {" → "}
          <code className="font-mono text-[11px] break-all">
            {d.action.action} {JSON.stringify(d.action.args ?? {})}
          </code>
        </span>
      ) : null}
    </span>
  );
}

/** A step's duration as a bar: where it sat in the run and how long it took, as shares of all the steps' time. */
export function DurationBar({ startMs, latencyMs, totalMs }: { startMs: number; latencyMs: number; totalMs: number }) {
  const left = totalMs > 0 ? (startMs / totalMs) * 100 : 0;
  const width = totalMs > 0 ? (latencyMs / totalMs) * 100 : 0;
  return (
    <div aria-hidden="true" className="relative h-1.5 overflow-hidden rounded-full bg-slate-100" data-testid="duration-bar">
      {/* At least a sliver, so a 2 ms step still shows where it sat. */}
      <div
        className="absolute inset-y-0 min-w-[3px] rounded-full bg-indigo-500"
        style={{ left: `${Math.min(left, 99)}%`, width: `${width}%` }}
      />
    </div>
  );
}

export function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(ms >= 10_000 ? 0 : 1)} s` : `${ms} ms`;
}

export function tokenText(step: { promptTokens: number; completionTokens: number }): string {
  const total = step.promptTokens + step.completionTokens;
  return total
    ? `${total.toLocaleString("en-US")} (${step.promptTokens.toLocaleString("en-US")} in, ${step.completionTokens.toLocaleString("en-US")} out)`
    : "0";
}

/**
 * Arguments or a result, folded: its leading fields on the summary line, every field inside, the
 * leading ones first. Long values wrap: nothing here may widen a 320 px page.
 */
export function StepPayload({ label, value, differs = false }: { label: "Arguments" | "Result"; value: unknown; differs?: boolean }) {
  const fields = readableFields(value);
  const empty =
    value === null ||
    value === undefined ||
    (fields.length === 1 && fields[0]!.path === "" && (fields[0]!.text === "{}" || fields[0]!.text === "null"));
  if (empty) {
    return (
      <p className="text-[12px] text-slate-500">
        <Differs on={differs}>
          <span className="font-medium text-slate-700">{label}:</span> none
        </Differs>
      </p>
    );
  }
  const summary = fieldSummary(fields);
  return (
    <details className="group min-w-0 text-[12px]">
      <summary className="cursor-pointer text-slate-700 marker:text-slate-400">
        <Differs on={differs}>
          <span className="font-medium">{label}</span>
        </Differs>
        {summary ? <span className="font-mono text-[11px] wrap-anywhere text-slate-500"> {summary}</span> : null}
      </summary>
      <dl className="mt-1 divide-y divide-slate-100 rounded-md bg-slate-50 px-2 py-1">
        {fields.map((f) => (
          <div key={f.path || "value"} className="grid grid-cols-1 gap-x-3 py-1 sm:grid-cols-[minmax(0,11rem)_minmax(0,1fr)]">
            <dt className={`font-mono text-[11px] wrap-anywhere ${f.leading ? "font-semibold text-slate-800" : "text-slate-500"}`}>
              {f.path || "value"}
            </dt>
            <dd className="font-mono text-[11px] whitespace-pre-wrap wrap-anywhere text-slate-800">{f.text}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
