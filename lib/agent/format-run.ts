// A run as text for a terminal: status, reason, citations, then one line per step.
import { REASON_LABELS, STATUS_LABELS } from "../contracts/reason-codes";
import type { TRunResult, TTraceStep } from "./run-agent";

function summarise(step: TTraceStep): string {
  const r = step.result as Record<string, unknown> | null;
  if (!r) return "";
  if (step.outcome !== "ok" && step.outcome !== "rewritten" && step.outcome !== "escalated") return String(r.detail ?? "");
  switch (step.action) {
    case "get_policy_evidence":
      return r.status === "grounded" ? `grounded: ${(r.citations as string[]).join(", ")}` : "abstain: no approved evidence";
    case "lookup_order":
      return r.found ? `found ${(r.order as { id: string }).id}` : `not found: ${String(r.orderId)}`;
    case "draft_reply":
      return `draft of ${String(r.text).length} characters citing ${(r.citations as string[]).join(", ")}`;
    case "propose_refund":
      return `${r.amountCents} cents → ${r.decision} (${(r.reasons as string[]).join(", ")})`;
    case "request_human_approval":
      return String(r.reason);
    default:
      return "";
  }
}

/** One step as a line of the trace: printed as it comes by the CLI, and in a run's trace. */
export function formatStep(s: TTraceStep): string {
  return `  ${String(s.step).padStart(2)}. ${s.action.padEnd(24)} ${s.outcome.padEnd(14)} ${String(s.latencyMs).padStart(5)} ms  ${summarise(s)}`;
}

/** `trace: false`: the steps were printed as they came, and are left out. */
export function formatRun(run: TRunResult, options: { trace?: boolean } = {}): string {
  const trace = options.trace === false ? [] : run.steps.map(formatStep);
  const lines = [
    `Run ${run.runId} (${run.mode}${run.mode === "simulate" ? ": nothing was changed" : ""}, planner ${run.planner})`,
    `Status:    ${STATUS_LABELS[run.status]} (${run.status})`,
    `Reason:    ${REASON_LABELS[run.reason]} (${run.reason})`,
    `Citations: ${run.citations.length ? run.citations.join(", ") : "none"}`,
    `Budget:    ${run.budgets.used.steps}/${run.budgets.limits.maxSteps} steps, ${run.budgets.used.tokens}/${run.budgets.limits.maxTokens} tokens, ${run.budgets.used.wallMs}/${run.budgets.limits.maxWallMs} ms`,
    `Versions:  agent ${run.versions.agent}, bundle ${run.versions.bundle}, policy ${run.versions.policy}, evidence ${run.versions.evidence}, corpus ${run.versions.corpus.slice(0, 12)}`,
    "",
    ...(options.trace === false ? [] : [run.steps.length ? "Trace:" : "Trace: no steps (the ticket never entered the agent loop)"]),
    ...trace,
  ];
  if (run.proposal)
    lines.push(
      "",
      `Proposal:  ${run.proposal.amountCents} cents on ${run.proposal.orderId}: ${run.proposal.decision} (${run.proposal.reasons.join(", ")})`,
    );
  if (run.approval)
    lines.push(
      `Approval:  ${run.approval.kind}, needs ${run.approval.requiredRole}, digest ${run.approval.digest.slice(0, 16)}…, expires ${run.approval.expiresAt}`,
    );
  if (run.draft) lines.push("", "Draft:", ...run.draft.split("\n").map((l) => `  │ ${l}`));
  return lines.join("\n");
}
