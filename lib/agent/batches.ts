// Batches of work done by the job queue instead of inside a request, one ticket at a time: agent runs
// over tickets a person selected (`bulk`, live or simulate), shadow passes (`shadow`), and assignments
// of selected tickets to one person (`assign`). Starting one writes the batch, one item per ticket and
// one job per item in a single transaction; each job does its ticket and marks its item, so progress
// is readable while the batch works, and a retried job whose item is settled does nothing.
import type { Role, RunMode } from "../../generated/prisma/enums";
import { endBatchItem, insertBatch } from "./store/batch-store";
import { db as defaultDb, type Db } from "../db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { AppError, isAppError } from "../contracts/app-error";
import { mayUse, type Area } from "../contracts/roles";
import { enqueueMany } from "../jobs/queue";
import { AGENT_RUN_JOB, BULK_ASSIGN_JOB } from "../jobs/definitions";
import { assignTicket } from "../queue/assign-ticket";
import { isMoveRefusal } from "../tickets/lifecycle";
import { runAgent, type TRunAgentInput, type TRunResult } from "./run-agent";

export type TBatchKind = "bulk" | "shadow" | "assign";
export const MAX_BATCH_TICKETS = 1000;
/** What a person may select in the queue for one bulk action. */
export const MAX_BULK_TICKETS = 500;

/** The work a batch does on each ticket. */
export type TBatchWork = { kind: "bulk" | "shadow"; mode: RunMode } | { kind: "assign"; assigneeId: string };

/** Who may start each kind: the area of the single-ticket action it repeats. */
const BATCH_AREA: Record<TBatchKind, Area> = { bulk: "runAgent", shadow: "autonomy", assign: "assign" };

/**
 * Starts a batch. A person starting one needs the role the same action on one ticket needs (checked
 * here, whoever calls); each item is checked again as its job runs (the ticket may have moved on).
 */
export async function startBatch(input: {
  ticketIds: string[];
  work: TBatchWork;
  actor: { id: string; role: Role } | null;
  limit?: number;
  client?: Db;
}): Promise<{ batchId: string; total: number }> {
  const client = input.client ?? defaultDb();
  const { work, actor } = input;
  const ticketIds = [...new Set(input.ticketIds)];
  const limit = input.limit ?? MAX_BATCH_TICKETS;
  if (actor && !mayUse(actor.role, BATCH_AREA[work.kind])) throw new AppError("forbidden", "Your role may not do this to tickets.");
  if (ticketIds.length === 0) throw new AppError("invalid", "Select at least one ticket.", "ticketIds");
  if (ticketIds.length > limit) throw new AppError("invalid", `Select at most ${limit} tickets at once.`, "ticketIds");
  if (work.kind === "assign" && !actor) throw new Error("startBatch: an assignment batch needs the person who assigns");
  const mode = work.kind === "assign" ? null : work.mode;
  const assigneeId = work.kind === "assign" ? work.assigneeId : null;
  return client.$transaction(async (tx) => {
    const batch = await insertBatch(tx, { kind: work.kind, mode, assigneeId, createdById: actor?.id ?? null, ticketIds });
    await recordAuditEvent(tx, {
      actorType: actor ? "user" : "system",
      actorId: actor?.id ?? null,
      action: "batch.started",
      subjectType: "batch",
      subjectId: batch.id,
      inputs: { kind: work.kind, ...(mode ? { mode } : { assigneeId }), tickets: ticketIds.length },
    });
    await enqueueMany(
      tx,
      work.kind === "assign" ? BULK_ASSIGN_JOB : AGENT_RUN_JOB,
      ticketIds.map((ticketId) => ({ data: { batchId: batch.id, ticketId } })),
    );
    return { batchId: batch.id, total: ticketIds.length };
  });
}

export interface TBatchProgress {
  batchId: string;
  kind: string;
  mode: RunMode | null;
  total: number;
  queued: number;
  done: number;
  refused: number;
  failed: number;
  finished: boolean;
  /** Items settled a minute, from the batch's start to the last one settled (null before the first). */
  ticketsPerMinute: number | null;
  /** What its runs' model calls waited on the rate limit, added up (runs wait side by side). */
  limiterWaitMs: number;
}

export async function batchProgress(batchId: string, client: Db = defaultDb()): Promise<TBatchProgress | null> {
  const batch = await client.agentBatch.findUnique({ where: { id: batchId } });
  if (!batch) return null;
  const [counts, settled] = await Promise.all([
    client.agentBatchItem.groupBy({ by: ["status"], where: { batchId }, _count: true }),
    client.agentBatchItem.aggregate({
      where: { batchId, status: { not: "queued" } },
      _max: { updatedAt: true },
      _sum: { limiterWaitMs: true },
      _count: true,
    }),
  ]);
  const n = (status: string) => counts.find((c) => c.status === status)?._count ?? 0;
  const queued = n("queued");
  const last = settled._max.updatedAt;
  const minutes = last ? (last.getTime() - batch.createdAt.getTime()) / 60_000 : 0;
  return {
    batchId,
    kind: batch.kind,
    mode: batch.mode,
    total: batch.total,
    queued,
    done: n("done"),
    refused: n("refused"),
    failed: n("failed"),
    finished: queued === 0,
    ticketsPerMinute: settled._count && minutes > 0 ? Math.round((settled._count / minutes) * 10) / 10 : null,
    limiterWaitMs: settled._sum.limiterWaitMs ?? 0,
  };
}

/** One ticket of a batch and what became of it. */
export interface TBatchItemResult {
  ticketId: string;
  number: number;
  subject: string;
  status: "queued" | "done" | "refused" | "failed";
  /** Why it was refused or failed, or a remark on a done item. */
  detail: string | null;
  /** The run a bulk or shadow item made: how it ended. */
  run: { id: string; status: string; reason: string | null } | null;
}

/** Every item of a batch, in ticket order, with its run's outcome: the per-ticket result of bulk work. */
export async function batchItemResults(batchId: string, client: Db = defaultDb()): Promise<TBatchItemResult[]> {
  const items = await client.agentBatchItem.findMany({
    where: { batchId },
    select: { ticketId: true, status: true, detail: true, runId: true, ticket: { select: { number: true, subject: true } } },
    orderBy: { ticket: { number: "asc" } },
  });
  const runIds = items.flatMap((item) => (item.runId ? [item.runId] : []));
  const runs = runIds.length
    ? await client.agentRun.findMany({ where: { id: { in: runIds } }, select: { id: true, status: true, reason: true } })
    : [];
  const runById = new Map(runs.map((run) => [run.id, run]));
  return items.map((item) => ({
    ticketId: item.ticketId,
    number: item.ticket.number,
    subject: item.ticket.subject,
    status: item.status as TBatchItemResult["status"],
    detail: item.detail,
    run: item.runId ? (runById.get(item.runId) ?? null) : null,
  }));
}

/** The progress of the most recent batch of a kind (the autonomy page shows the last shadow pass). */
export async function latestBatchProgress(kind: TBatchKind, client: Db = defaultDb()): Promise<TBatchProgress | null> {
  const latest = await client.agentBatch.findFirst({ where: { kind }, orderBy: { createdAt: "desc" }, select: { id: true } });
  return latest ? batchProgress(latest.id, client) : null;
}

/**
 * One item of a batch, as its job runs it. `then` runs after a successful run (a shadow pass records
 * its evidence there). A ticket the lifecycle refuses (resolved meanwhile, another run on it) is
 * marked refused with the reason, not retried.
 */
export async function runBatchItem(input: {
  batchId: string;
  ticketId: string;
  client?: Db;
  run?: Partial<TRunAgentInput>;
  then?: (run: TRunResult, client: Db) => Promise<void>;
  /** What the run's model calls waited on the rate limit so far, kept with the item. */
  limiterWaitMs?: () => number;
}): Promise<"done" | "refused" | "skipped"> {
  const client = input.client ?? defaultDb();
  const item = await client.agentBatchItem.findUnique({
    where: { batchId_ticketId: { batchId: input.batchId, ticketId: input.ticketId } },
    include: { batch: true },
  });
  if (!item || item.status !== "queued") return "skipped";
  let run: TRunResult;
  try {
    if (!item.batch.mode) throw new Error(`runBatchItem: batch ${input.batchId} is not a batch of runs`);
    run = await runAgent({
      ...input.run,
      ticketId: input.ticketId,
      mode: item.batch.mode,
      startedBy: item.batch.createdById,
      batchId: input.batchId,
      client,
    });
  } catch (error) {
    if (!isMoveRefusal(error)) throw error;
    await endBatchItem(client, input, { status: "refused", detail: error.message, limiterWaitMs: input.limiterWaitMs?.() });
    return "refused";
  }
  await input.then?.(run, client);
  await endBatchItem(client, input, { status: "done", runId: run.runId, limiterWaitMs: input.limiterWaitMs?.() });
  return "done";
}

/**
 * One item of an assignment batch, as its job runs it: the assignment the person who started the
 * batch would make on the ticket page, checked as of now (their role, the assignee still active, the
 * ticket not resolved). A refusal marks the item refused with its message; it is not retried.
 */
export async function assignBatchItem(input: { batchId: string; ticketId: string; client?: Db }): Promise<"done" | "refused" | "skipped"> {
  const client = input.client ?? defaultDb();
  const item = await client.agentBatchItem.findUnique({
    where: { batchId_ticketId: { batchId: input.batchId, ticketId: input.ticketId } },
    include: { batch: { select: { assigneeId: true, createdBy: { select: { id: true, role: true, active: true } } } } },
  });
  if (!item || item.status !== "queued") return "skipped";
  const { assigneeId, createdBy } = item.batch;
  if (!assigneeId || !createdBy) throw new Error(`assignBatchItem: batch ${input.batchId} is not a batch of assignments`);
  const settle = (status: "done" | "refused", detail: string | null) => endBatchItem(client, input, { status, detail });
  try {
    if (!createdBy.active) throw new AppError("user_inactive", "The person who started this batch has been deactivated since.");
    const result = await assignTicket({ ticketId: input.ticketId, change: { kind: "assign", assigneeId }, actor: createdBy, client });
    await settle("done", result.changed ? null : "Already assigned to them: nothing changed.");
    return "done";
  } catch (error) {
    if (!isAppError(error)) throw error;
    await settle("refused", error.message);
    return "refused";
  }
}

/** A job that failed for good marks its item, so the batch can finish. */
export async function failBatchItem(input: { batchId: string; ticketId: string; detail: string; client?: Db }) {
  const client = input.client ?? defaultDb();
  await endBatchItem(client, input, { status: "failed", detail: input.detail.slice(0, 500) });
}
