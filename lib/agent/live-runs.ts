// A run a person asks for ("Run agent", the ticket page) is a job (lib/jobs/definitions/live-run.ts),
// not the request's work: the request enqueues it and returns, and the run goes on in a worker –
// the server's own on the embedded database – whatever becomes of the request or the tab. The job's
// id is the run's, named before it starts, so the page follows the run by that id from the first
// moment: queued, then each step as it is written (runAgent's stepsAsTheyCome), then its end.
import { randomUUID } from "node:crypto";
import { AppError, type TErrorCode } from "../contracts/app-error";
import { db as defaultDb, type Db } from "../db";
import { LIVE_RUN_JOB } from "../jobs/definitions/live-run";
import { enqueue, QUEUE_SCHEMA } from "../jobs/queue";
import { moveRefusal, TICKET_MOVES } from "../tickets/lifecycle";
import type { TicketStatus } from "../../generated/prisma/enums";
import type { TBudgets } from "./loop-steps";
import type { TTraceStep } from "./run-journal";

export type TPlannerAsked = "rule" | "model" | "default";

export interface TStartLiveRun {
  ticket: { id: string; status: TicketStatus };
  mode: "live" | "simulate";
  planner: TPlannerAsked;
  startedBy: string | null;
  client?: Db;
}

/**
 * Enqueues the run and answers its id. A live run on a ticket that cannot start one (resolved, held
 * by another run or a refund) is refused here, as the run's own start would refuse it; the run's
 * start still checks again, for a ticket that moved meanwhile.
 */
export async function startLiveRun(input: TStartLiveRun): Promise<{ runId: string }> {
  const { ticket, mode } = input;
  if (mode === "live" && !(TICKET_MOVES.start_run.from as readonly TicketStatus[]).includes(ticket.status))
    throw moveRefusal("start_run", ticket.status);
  const runId = randomUUID();
  const client = input.client ?? defaultDb();
  await client.$transaction((tx) =>
    enqueue(tx, LIVE_RUN_JOB, { runId, ticketId: ticket.id, mode, planner: input.planner, startedBy: input.startedBy }, { id: runId }),
  );
  return { runId };
}

/** A refusal at a run's start as its job's failure keeps it: its code, then its words. */
export const refusalText = (error: AppError) => `[${error.code}] ${error.message}`;

/** The refusal a failed job's message names, as the error it was; null for any other failure. */
export function refusalOf(message: string | null): AppError | null {
  const found = /^\[([a-z_]+)\] ([\s\S]*)$/.exec(message ?? "");
  return found ? new AppError(found[1] as TErrorCode, found[2]!) : null;
}

/** Where a live run is: waiting for a worker, working, ended (its status), or refused at its start. */
export type TLiveRunState = "queued" | "running" | "ended" | "refused";

export interface TLiveRunProgress {
  runId: string;
  state: TLiveRunState;
  /** The run's status once it has a row (running, awaiting_approval, needs_human, …). */
  status: string | null;
  reason: string | null;
  /** Why its start was refused, in words (state "refused"). */
  message: string | null;
  ticketId: string | null;
  /** Its steps written so far, in order. */
  steps: (TTraceStep & { createdAt: string })[];
  /** What it used so far, counted from its steps (and the clock while it runs), against its limits. */
  used: { steps: number; tokens: number; wallMs: number };
  budgets: TBudgets | null;
}

/** The job of a run that has no row yet: its state and, if it failed, why. */
async function liveRunJob(client: Db, runId: string): Promise<{ state: string; message: string | null } | null> {
  const rows = await client.$queryRawUnsafe<{ state: string; output: { message?: string } | null }[]>(
    `SELECT state::text AS state, output FROM ${QUEUE_SCHEMA}.job WHERE name = $1 AND id = $2::uuid`,
    LIVE_RUN_JOB.queue,
    runId,
  );
  const row = rows[0];
  return row ? { state: row.state, message: row.output?.message ?? null } : null;
}

const empty = (runId: string, state: TLiveRunState, message: string | null = null): TLiveRunProgress => ({
  runId,
  state,
  status: null,
  reason: null,
  message,
  ticketId: null,
  steps: [],
  used: { steps: 0, tokens: 0, wallMs: 0 },
  budgets: null,
});

/** A run as the page follows it; null when there is no such run and no such job. */
export async function liveRunProgress(runId: string, client: Db = defaultDb()): Promise<TLiveRunProgress | null> {
  const run = await client.agentRun.findUnique({
    where: { id: runId },
    include: { traceEvents: { orderBy: { step: "asc" } } },
  });
  if (!run) {
    const job = await liveRunJob(client, runId);
    if (!job) return null;
    // A job that ended with no run was refused at its start (or its worker died before the start).
    return job.state === "failed" || job.state === "completed" || job.state === "cancelled"
      ? empty(runId, "refused", job.message ?? "The run did not start.")
      : empty(runId, "queued");
  }
  const steps = run.traceEvents.map((e) => ({
    step: e.step,
    action: e.action,
    args: e.args,
    outcome: e.outcome as TTraceStep["outcome"],
    reason: e.reason as TTraceStep["reason"],
    result: e.result,
    policyDecision: e.policyDecision as TTraceStep["policyDecision"],
    promptTokens: e.promptTokens,
    completionTokens: e.completionTokens,
    latencyMs: e.latencyMs,
    model: e.model,
    promptVersion: e.promptVersion,
    createdAt: e.createdAt.toISOString(),
  }));
  const running = run.status === "running";
  const used = running
    ? {
        steps: steps.length,
        tokens: steps.reduce((sum, s) => sum + s.promptTokens + s.completionTokens, 0),
        wallMs: Math.max(0, Date.now() - run.startedAt.getTime()),
      }
    : { steps: run.stepsUsed, tokens: run.tokensUsed, wallMs: run.elapsedMs };
  return {
    runId,
    state: running ? "running" : "ended",
    status: run.status,
    reason: run.reason,
    message: null,
    ticketId: run.ticketId,
    steps,
    used,
    budgets: run.budgets as unknown as TBudgets,
  };
}

/**
 * Waits up to `ms` for the run to start (its row written) or be refused, as a request waits a
 * moment before it answers; the run goes on either way. `signal`: the request gave up.
 */
export async function awaitLiveRunStart(
  runId: string,
  ms: number,
  options: { client?: Db; signal?: AbortSignal } = {},
): Promise<TLiveRunProgress | null> {
  const client = options.client ?? defaultDb();
  const deadline = Date.now() + ms;
  for (;;) {
    const progress = await liveRunProgress(runId, client);
    if (progress && progress.state !== "queued") return progress;
    if (Date.now() >= deadline || options.signal?.aborted) return progress;
    await new Promise((r) => setTimeout(r, 100));
  }
}
