// Batches of agent runs done by the job queue instead of inside a request: bulk live runs over
// tickets a person selected, and shadow passes (simulate). Starting one writes the batch, one item per
// ticket and one job per item in a single transaction; each job runs its ticket and marks its item,
// so progress is readable while the batch works, and a retried job whose item is settled does nothing.
import type { RunMode } from "../../generated/prisma/enums";
import { db as defaultDb, type Db } from "../db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { enqueueMany, QUEUES } from "../jobs/queue";
import { isMoveRefusal } from "../tickets/lifecycle";
import { runAgent, type TRunAgentInput, type TRunResult } from "./run-agent";

export type TBatchKind = "bulk" | "shadow";
export const MAX_BATCH_TICKETS = 1000;

export async function startBatch(input: { ticketIds: string[]; kind: TBatchKind; mode: RunMode; actor: { id: string } | null; client?: Db }): Promise<{ batchId: string; total: number }> {
  const client = input.client ?? defaultDb();
  const ticketIds = [...new Set(input.ticketIds)];
  if (ticketIds.length === 0) throw new Error("startBatch: no tickets");
  if (ticketIds.length > MAX_BATCH_TICKETS) throw new Error(`startBatch: at most ${MAX_BATCH_TICKETS} tickets a batch`);
  return client.$transaction(async (tx) => {
    const batch = await tx.agentBatch.create({ data: { kind: input.kind, mode: input.mode, total: ticketIds.length, createdById: input.actor?.id ?? null } });
    await recordAuditEvent(tx, { actorType: input.actor ? "user" : "system", actorId: input.actor?.id ?? null, action: "batch.started", subjectType: "batch", subjectId: batch.id, inputs: { kind: input.kind, mode: input.mode, tickets: ticketIds.length } });
    await tx.agentBatchItem.createMany({ data: ticketIds.map((ticketId) => ({ batchId: batch.id, ticketId })) });
    await enqueueMany(tx, QUEUES.agentRun, ticketIds.map((ticketId) => ({ data: { batchId: batch.id, ticketId } })));
    return { batchId: batch.id, total: ticketIds.length };
  });
}

export interface TBatchProgress {
  batchId: string;
  kind: string;
  mode: RunMode;
  total: number;
  queued: number;
  done: number;
  refused: number;
  failed: number;
  finished: boolean;
}

export async function batchProgress(batchId: string, client: Db = defaultDb()): Promise<TBatchProgress | null> {
  const batch = await client.agentBatch.findUnique({ where: { id: batchId } });
  if (!batch) return null;
  const counts = await client.agentBatchItem.groupBy({ by: ["status"], where: { batchId }, _count: true });
  const n = (status: string) => counts.find((c) => c.status === status)?._count ?? 0;
  const queued = n("queued");
  return { batchId, kind: batch.kind, mode: batch.mode, total: batch.total, queued, done: n("done"), refused: n("refused"), failed: n("failed"), finished: queued === 0 };
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
}): Promise<"done" | "refused" | "skipped"> {
  const client = input.client ?? defaultDb();
  const item = await client.agentBatchItem.findUnique({ where: { batchId_ticketId: { batchId: input.batchId, ticketId: input.ticketId } }, include: { batch: true } });
  if (!item || item.status !== "queued") return "skipped";
  let run: TRunResult;
  try {
    run = await runAgent({ ...input.run, ticketId: input.ticketId, mode: item.batch.mode, startedBy: item.batch.createdById, batchId: input.batchId, client });
  } catch (error) {
    if (!isMoveRefusal(error)) throw error;
    await client.agentBatchItem.updateMany({ where: { batchId: input.batchId, ticketId: input.ticketId, status: "queued" }, data: { status: "refused", detail: error.message } });
    return "refused";
  }
  await input.then?.(run, client);
  await client.agentBatchItem.updateMany({ where: { batchId: input.batchId, ticketId: input.ticketId, status: "queued" }, data: { status: "done", runId: run.runId } });
  return "done";
}

/** A job that failed for good marks its item, so the batch can finish. */
export async function failBatchItem(input: { batchId: string; ticketId: string; detail: string; client?: Db }) {
  const client = input.client ?? defaultDb();
  await client.agentBatchItem.updateMany({ where: { batchId: input.batchId, ticketId: input.ticketId, status: "queued" }, data: { status: "failed", detail: input.detail.slice(0, 500) } });
}
