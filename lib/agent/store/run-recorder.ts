// The store of a run's records: its row (AgentRun) and its trace (TraceEvent). Nothing else in lib/
// writes either table. A run is recorded in few statements, each part of a larger one the run makes
// anyway: its start (or its bypass) with the ticket's move, its steps held in memory (run-journal.ts)
// until the run's next write, its end with the ticket's move and whatever the run asks a person to
// approve (lib/approvals/store/run-request-writes.ts), and the lease its process renews meanwhile. The sweep
// (sweep-runs.ts) interrupts a run whose lease ran out through `interruptRunRow`.
//
// Rows go in as one JSON value (canonical JSON, read back with jsonb_populate_record, so every value
// takes its column's own type) by a data-modifying CTE that may depend on the rest of the statement.
// Timestamps travel as ISO strings, which a timestamp column without time zone reads as the UTC
// wall-clock time they name. Each transaction takes the ticket's audit stream first, as every audited
// write does, and the rows after it.
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { driverOf, Prisma, sqlRows, type Db, type DbTx } from "../../db";
import type { TSqlTx } from "../../db/driver";
import { canonicalJson } from "../../contracts/canonical";
import { recordAuditEvent, recordAuditEvents, type TAuditInput } from "../../audit/record-audit-event";
import { sendingJobCte } from "../../jobs/queue";
import type { TTicketMoveColumns, TTicketMoveSql } from "../../tickets/store/ticket-move-sql";
import { RunJournal } from "../run-journal";
import { runCost } from "../run-cost";

/** This process, as a lease holder. */
export const LEASE_OWNER = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

/** The run's lease ran out while it worked (the sweep took it): nothing of its ending is written. */
export class RunInterrupted extends Error {
  constructor(readonly runId: string) {
    super(`run ${runId} lost its lease and was interrupted`);
    this.name = "RunInterrupted";
  }
}

/** A condition on the statement of the run's end: the run was still running, and is now ended. */
export const RUN_ENDED = Prisma.sql`EXISTS (SELECT 1 FROM run_ended)`;
const TICKET_MOVED = Prisma.sql`EXISTS (SELECT 1 FROM ticket_moved)`;

const where = (when: Prisma.Sql | undefined) => (when ? Prisma.sql`WHERE ${when}` : Prisma.empty);

/** CTE `run_row`: the run's row, inserted only `when` the rest of the statement holds. */
function insertRunCte(row: Record<string, unknown>, when?: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`run_row AS (
    INSERT INTO "AgentRun" ("id", "ticketId", "mode", "planner", "status", "reason", "agentVersion", "bundleVersion", "policyVersion", "corpusHash", "manifest", "budgets", "feedback", "startedById", "batchId", "startedAt", "finishedAt", "leaseOwner", "leaseExpiresAt")
    SELECT r."id", r."ticketId", r."mode", r."planner", r."status", r."reason", r."agentVersion", r."bundleVersion", r."policyVersion", r."corpusHash", r."manifest", r."budgets", r."feedback", r."startedById", r."batchId", r."startedAt", r."finishedAt", r."leaseOwner", r."leaseExpiresAt"
    FROM jsonb_populate_record(NULL::"AgentRun", ${canonicalJson(row)}::jsonb) r
    ${where(when)}
    RETURNING id)`;
}

/**
 * CTE `run_ended`: the run's end, written only while the run is still running – a run the sweep
 * interrupted (its lease lost) matches nothing, and RUN_ENDED is false.
 */
function endRunCte(runId: string, end: TRunEnd): Prisma.Sql {
  return Prisma.sql`run_ended AS (
    UPDATE "AgentRun" r SET "status" = x."status", "reason" = x."reason", "stepsUsed" = x."stepsUsed", "tokensUsed" = x."tokensUsed", "costUsd" = x."costUsd", "elapsedMs" = x."elapsedMs",
                            "evidence" = x."evidence", "citations" = x."citations", "draft" = x."draft", "finishedAt" = x."finishedAt", "leaseExpiresAt" = NULL
    FROM jsonb_populate_record(NULL::"AgentRun", ${canonicalJson(end)}::jsonb) x
    WHERE r.id = ${runId}::uuid AND r."status" = 'running'
    RETURNING r.id)`;
}

/**
 * CTE `trace_rows`: the journal's trace steps not yet written, for the statement they go with; null
 * when there are none. A step already written is skipped, never doubled.
 */
function traceCte(journal: RunJournal): Prisma.Sql | null {
  const rows = journal.unwrittenSteps().map((s) => ({
    ...s,
    action: s.action.slice(0, 200),
    // JSON null stays a JSON value in the required `args`; the nullable columns get SQL NULL.
    args: s.args ?? null,
  }));
  if (rows.length === 0) return null;
  return Prisma.sql`trace_rows AS (
      INSERT INTO "TraceEvent" ("runId", "step", "action", "args", "outcome", "reason", "result", "policyDecision", "promptTokens", "completionTokens", "cachedTokens", "latencyMs", "model", "promptVersion", "createdAt")
      SELECT ${journal.runId}::uuid, (e->>'step')::int, e->>'action', e->'args', e->>'outcome', e->>'reason', NULLIF(e->'result', 'null'::jsonb), NULLIF(e->'policyDecision', 'null'::jsonb),
             (e->>'promptTokens')::int, (e->>'completionTokens')::int, (e->>'cachedTokens')::int, (e->>'latencyMs')::int, e->>'model', e->>'promptVersion', (e->>'at')::timestamp(3)
      FROM jsonb_array_elements(${canonicalJson(rows)}::jsonb) e
      ON CONFLICT ("runId", "step") DO NOTHING)`;
}

/** The run's row as it starts (AgentRun's columns). */
export type TRunRow = Record<string, unknown> & { id: string; ticketId: string };

/** The run's end (AgentRun's columns). */
export interface TRunEnd {
  status: string;
  reason: string;
  stepsUsed: number;
  tokensUsed: number;
  /** Dollars, from the steps' tokens and the model prices (run-cost.ts); null: a model with no price. */
  costUsd: number | null;
  elapsedMs: number;
  evidence: unknown;
  citations: string[];
  draft: string | null;
  finishedAt: Date;
}

/** Writes of other tables made by the same statement as the run's row: more CTEs, and what follows. */
export interface TAlongside {
  /** A live run's ticket move: the run's row is written only if the ticket moved. */
  move: TTicketMoveSql | null;
  ctes?: Prisma.Sql[];
  /** More select-list items, read by `then`. */
  columns?: Prisma.Sql;
  /** A job written by the same statement (sendingJobCte), after the CTEs. */
  job?: Parameters<typeof sendingJobCte>[0] | null;
  /** Runs after the statement, in its transaction, with its row. */
  then?: (tx: TSqlTx, row: Record<string, unknown>) => Promise<void>;
}

/** The records of one run: its row, its trace, its lease. */
export class RunRecorder {
  readonly journal: RunJournal;

  constructor(
    private readonly client: Db,
    readonly runId: string,
    private readonly leaseMs: number,
  ) {
    this.journal = new RunJournal(runId);
  }

  private leaseUntil(): Date {
    return new Date(Date.now() + this.leaseMs);
  }

  /** A bypassed run: its event, then its row (already finished), with its ticket's move if live. */
  recordBypass(event: TAuditInput, row: TRunRow, alongside: TAlongside): Promise<void> {
    return this.begin(event, row, alongside);
  }

  /** The run's start: its event, then its row holding this process's lease, with what goes alongside. */
  recordStart(event: TAuditInput, row: TRunRow, alongside: TAlongside): Promise<void> {
    return this.begin(event, { ...row, status: "running", leaseOwner: LEASE_OWNER, leaseExpiresAt: this.leaseUntil() }, alongside);
  }

  private async begin(event: TAuditInput, row: TRunRow, alongside: TAlongside): Promise<void> {
    const { move, ctes = [], columns } = alongside;
    await driverOf(this.client).transaction(async (tx) => {
      await recordAuditEvent(tx, event);
      if (!move) {
        await sqlRows(tx, Prisma.sql`WITH ${insertRunCte(row)} SELECT 1`);
        return;
      }
      // The ticket's move is the check: a refused move writes nothing of the run.
      const [written] = await sqlRows<TTicketMoveColumns & Record<string, unknown>>(
        tx,
        Prisma.sql`
      WITH ${Prisma.join([move.ctes, ...ctes, insertRunCte(row, TICKET_MOVED)], ",\n      ")}
      SELECT ${move.columns}${columns ? Prisma.sql`, ${columns}` : Prisma.empty}`,
      );
      move.result(written!);
      await alongside.then?.(tx, written!);
    });
  }

  /** Renews the run's lease while this process works; returns what stops renewing it. */
  holdLease(): () => void {
    const lease = setInterval(
      () => {
        this.client.agentRun
          .updateMany({ where: { id: this.runId, status: "running" }, data: { leaseExpiresAt: this.leaseUntil() } })
          .catch(() => {});
      },
      Math.max(50, Math.floor(this.leaseMs / 3)),
    );
    lease.unref();
    return () => clearInterval(lease);
  }

  /** Writes the journal's audit events not yet written, in one statement: before a tool that writes. */
  async writeEvents(): Promise<void> {
    const upTo = this.journal.mark();
    await recordAuditEvents(driverOf(this.client), this.journal.unwrittenEvents());
    this.journal.written({ ...upTo, steps: 0 });
  }

  /**
   * The run's end, in one transaction: the journal's events and `events` first, then one statement
   * with the run's end, its trace, the ticket's move and the CTEs alongside – each only if the run
   * still holds its lease. A run the sweep took throws RunInterrupted and writes nothing of its end.
   */
  async recordEnd(events: TAuditInput[], end: TRunEnd, alongside: TAlongside): Promise<void> {
    const { move, ctes = [], job } = alongside;
    const upTo = this.journal.mark();
    const allEvents = [...this.journal.unwrittenEvents(), ...events];
    const trace = traceCte(this.journal);
    const statement = [endRunCte(this.runId, end), ...(trace ? [trace] : []), ...(move ? [move.ctes] : []), ...ctes];
    await driverOf(this.client).transaction(async (tx) => {
      await recordAuditEvents(tx, allEvents);
      const write = (extra: Prisma.Sql[]) =>
        sqlRows<TTicketMoveColumns & { ended: string } & Record<string, unknown>>(
          tx,
          Prisma.sql`
      WITH ${Prisma.join([...statement, ...extra], ",\n")}
      SELECT (SELECT count(*)::int FROM run_ended) AS ended${move ? Prisma.sql`, ${move.columns}` : Prisma.empty}`,
        );
      const [result] = job ? await sendingJobCte(job, (cte) => write([cte])) : await write([]);
      // The sweep took the run: nothing of its ending is written (the transaction rolls back).
      if (Number(result!.ended) !== 1) throw new RunInterrupted(this.runId);
      move?.result(result!);
      await alongside.then?.(tx, result!);
    });
    this.journal.written(upTo);
  }

  /**
   * Writes whatever the journal holds unwritten, in one transaction: for a run that did not reach its
   * end's transaction (a thrown error, or the lease lost to the sweep). Its steps happened; only its
   * ending is not written.
   */
  async recordSteps(): Promise<void> {
    const upTo = this.journal.mark();
    const trace = traceCte(this.journal);
    const events = this.journal.unwrittenEvents();
    if (!trace && events.length === 0) return;
    await driverOf(this.client).transaction(async (tx) => {
      await recordAuditEvents(tx, events);
      if (trace) await sqlRows(tx, Prisma.sql`WITH ${trace} SELECT 1`);
    });
    this.journal.written(upTo);
  }
}

/**
 * The sweep's write: a running run whose lease expired before `now` becomes interrupted. False when
 * it was renewed meanwhile (or ended): then nothing is written.
 */
export async function interruptRunRow(tx: DbTx, runId: string, now: Date): Promise<boolean> {
  const taken = await tx.agentRun.updateMany({
    where: { id: runId, status: "running", leaseExpiresAt: { lt: now } },
    data: { status: "interrupted", reason: "run_interrupted", finishedAt: now, leaseExpiresAt: null },
  });
  if (taken.count !== 1) return false;
  // Its process died half way: the calls it made are charged from the steps it wrote.
  const steps = await tx.traceEvent.findMany({
    where: { runId },
    select: { promptTokens: true, completionTokens: true, cachedTokens: true, model: true },
  });
  const tokens = (s: (typeof steps)[number]) => ({
    promptTokens: s.promptTokens ?? 0,
    completionTokens: s.completionTokens ?? 0,
    cachedTokens: s.cachedTokens ?? 0,
    model: s.model,
  });
  await tx.agentRun.update({ where: { id: runId }, data: { costUsd: runCost(steps.map(tokens)) } });
  return true;
}
