// What a run has done and not yet written: its trace steps, and the audit events of steps that
// changed nothing (a tool that only reads, a refused decision). They go to the database with the
// run's next write, in its transaction – the audit events ahead of that write's own – instead of a
// round trip each: before a tool that writes (tools.ts, WRITING_TOOLS), with the run's end, or, when
// the run ends in a thrown error or loses its lease, on their own (writeJournal). A step's audit
// event is on the chain before any effect that follows it, and every step of a run that ended
// reaches its trace, whichever way it ended.
import type { Db } from "../db";
import { driverOf, Prisma, sqlRows } from "../db";
import { canonicalJson } from "../contracts/canonical";
import { recordAuditEvents, type TAuditInput } from "../audit/record-audit-event";
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

  /**
   * The trace steps not yet written, as a data-modifying CTE named `trace_rows` for the statement of
   * the run's end; null when there are none. A step already written is skipped, never doubled.
   */
  traceCte(): Prisma.Sql | null {
    const rows = this.steps.slice(this.stepsWritten).map((s, i) => ({
      ...s,
      action: s.action.slice(0, 200),
      // JSON null stays a JSON value in the required `args`; the nullable columns get SQL NULL.
      args: s.args ?? null,
      at: this.recordedAt[this.stepsWritten + i]!,
    }));
    if (rows.length === 0) return null;
    return Prisma.sql`trace_rows AS (
      INSERT INTO "TraceEvent" ("runId", "step", "action", "args", "outcome", "reason", "result", "policyDecision", "promptTokens", "completionTokens", "latencyMs", "model", "promptVersion", "createdAt")
      SELECT ${this.runId}::uuid, (e->>'step')::int, e->>'action', e->'args', e->>'outcome', e->>'reason', NULLIF(e->'result', 'null'::jsonb), NULLIF(e->'policyDecision', 'null'::jsonb),
             (e->>'promptTokens')::int, (e->>'completionTokens')::int, (e->>'latencyMs')::int, e->>'model', e->>'promptVersion', (e->>'at')::timestamp(3)
      FROM jsonb_array_elements(${canonicalJson(rows)}::jsonb) e
      ON CONFLICT ("runId", "step") DO NOTHING)`;
  }
}

/** Writes the audit events not yet written, in one statement: before a tool that writes. */
export async function writeJournalEvents(client: Db, journal: RunJournal): Promise<void> {
  const upTo = journal.mark();
  await recordAuditEvents(driverOf(client), journal.unwrittenEvents());
  journal.written({ ...upTo, steps: 0 });
}

/**
 * Writes whatever the journal holds unwritten, in one transaction: for a run that did not reach its
 * end's transaction (a thrown error, or the lease lost to the sweep). Its steps happened; only its
 * ending is not written.
 */
export async function writeJournal(client: Db, journal: RunJournal): Promise<void> {
  const upTo = journal.mark();
  const trace = journal.traceCte();
  const events = journal.unwrittenEvents();
  if (!trace && events.length === 0) return;
  await driverOf(client).transaction(async (tx) => {
    await recordAuditEvents(tx, events);
    if (trace) await sqlRows(tx, Prisma.sql`WITH ${trace} SELECT 1`);
  });
  journal.written(upTo);
}
