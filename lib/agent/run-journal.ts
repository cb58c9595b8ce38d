// What a run has done and not yet written: its trace steps, and the audit events of steps that
// changed nothing (a tool that only reads, a refused decision). Held in memory; the run recorder
// (lib/agent/store/run-recorder.ts) writes them with the run's next write, in its transaction – the audit events
// ahead of that write's own – instead of a round trip each: before a tool that writes (tools.ts,
// WRITING_TOOLS), with the run's end, or, when the run ends in a thrown error or loses its lease, on
// their own. A step's audit event is on the chain before any effect that follows it, and every step
// of a run that ended reaches its trace, whichever way it ended.
import type { TAuditInput } from "../audit/record-audit-event";
import type { TActionDecision } from "../policy/evaluate-action";
import type { TStopReason } from "../contracts/reason-codes";

export interface TTraceStep {
  step: number;
  action: string;
  args: unknown;
  outcome: "ok" | "rewritten" | "blocked" | "escalated" | "timeout" | "error" | "invalid_output";
  reason: TStopReason | null;
  result: unknown;
  policyDecision: TActionDecision | null;
  promptTokens: number;
  completionTokens: number;
  /** Of the prompt tokens, those the provider served from its cache (priced apart: run-cost.ts). */
  cachedTokens?: number;
  latencyMs: number;
  model: string | null;
  promptVersion: string | null;
}

export class RunJournal {
  /** Every step of the run, in order, written or not. */
  readonly steps: TTraceStep[] = [];
  /** When each step was recorded: its trace row's createdAt. */
  private readonly recordedAt: Date[] = [];
  private readonly events: TAuditInput[] = [];
  private stepsWritten = 0;
  private eventsWritten = 0;

  constructor(readonly runId: string) {}

  step(step: TTraceStep): void {
    this.steps.push(step);
    this.recordedAt.push(new Date());
  }

  event(event: TAuditInput): void {
    this.events.push(event);
  }

  /** The audit events not yet written, oldest first. */
  unwrittenEvents(): TAuditInput[] {
    return this.events.slice(this.eventsWritten);
  }

  /** Everything written so far and up to now is written: call once the transaction committed. */
  written(upTo: { events: number; steps: number }): void {
    this.eventsWritten = Math.max(this.eventsWritten, upTo.events);
    this.stepsWritten = Math.max(this.stepsWritten, upTo.steps);
  }

  /** How far the journal goes now, for `written` after a commit. */
  mark(): { events: number; steps: number } {
    return { events: this.events.length, steps: this.steps.length };
  }

  /** The trace steps not yet written, oldest first, each with the time it was recorded. */
  unwrittenSteps(): (TTraceStep & { at: Date })[] {
    return this.steps.slice(this.stepsWritten).map((s, i) => ({ ...s, at: this.recordedAt[this.stepsWritten + i]! }));
  }
}
