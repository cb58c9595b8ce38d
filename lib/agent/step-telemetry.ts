// Each step of the loop, as it is recorded (loop-steps.ts, `record`): a span with OpenTelemetry's gen_ai
// attributes – the model, the tokens it reported, the tool – and the step's outcome and reason code,
// and a debug line. The span runs from the step's start to its record, a child of the request's or
// the job's span. Neither carries the step's arguments or result: they hold customer data.
import { logger } from "../observability/logger";
import { recordSpan, type Attributes } from "../observability/tracing";
import type { TTraceStep } from "./run-journal";

const FAILED: ReadonlySet<TTraceStep["outcome"]> = new Set(["error", "timeout", "invalid_output"]);

export function stepAttributes(runId: string, step: TTraceStep): Attributes {
  return {
    "gen_ai.operation.name": "execute_tool",
    "gen_ai.tool.name": step.action,
    ...(step.model ? { "gen_ai.request.model": step.model } : {}),
    "gen_ai.usage.input_tokens": step.promptTokens,
    "gen_ai.usage.output_tokens": step.completionTokens,
    "countersign.run_id": runId,
    "countersign.agent.step": step.step,
    "countersign.agent.outcome": step.outcome,
    ...(step.reason ? { "countersign.agent.reason": step.reason } : {}),
    ...(step.promptVersion ? { "countersign.agent.prompt_version": step.promptVersion } : {}),
  };
}

export function traceStep(runId: string, step: TTraceStep): void {
  const end = new Date();
  recordSpan("agent.step", {
    startTime: new Date(end.getTime() - step.latencyMs),
    endTime: end,
    attributes: stepAttributes(runId, step),
    failed: FAILED.has(step.outcome) ? (step.reason ?? step.outcome) : undefined,
  });
  logger.debug(
    {
      step: step.step,
      action: step.action,
      outcome: step.outcome,
      reason: step.reason,
      model: step.model,
      inputTokens: step.promptTokens,
      outputTokens: step.completionTokens,
      latencyMs: step.latencyMs,
    },
    "agent step",
  );
}
