// The batches' rows: a batch and its items, and each item's end. An item ends once: every update is
// guarded by its status still being `queued`, so a retried job or a late failure changes nothing.
import type { RunMode } from "../../../generated/prisma/enums";
import type { Db, DbTx } from "../../db";

/** A new batch with an item per ticket, in the caller's transaction. */
export async function insertBatch(
  tx: DbTx,
  b: { kind: string; mode: RunMode | null; assigneeId: string | null; createdById: string | null; ticketIds: readonly string[] },
): Promise<{ id: string }> {
  const batch = await tx.agentBatch.create({
    select: { id: true },
    data: { kind: b.kind, mode: b.mode, assigneeId: b.assigneeId, total: b.ticketIds.length, createdById: b.createdById },
  });
  await tx.agentBatchItem.createMany({ data: b.ticketIds.map((ticketId) => ({ batchId: batch.id, ticketId })) });
  return batch;
}

/** Ends an item still queued: done (with its run), refused or failed, and why. */
export async function endBatchItem(
  client: Db | DbTx,
  item: { batchId: string; ticketId: string },
  end: { status: "done" | "refused" | "failed"; detail?: string | null; runId?: string; limiterWaitMs?: number },
): Promise<void> {
  await client.agentBatchItem.updateMany({
    where: { batchId: item.batchId, ticketId: item.ticketId, status: "queued" },
    data: {
      status: end.status,
      detail: end.detail ?? null,
      ...(end.runId ? { runId: end.runId } : {}),
      ...(end.limiterWaitMs ? { limiterWaitMs: Math.round(end.limiterWaitMs) } : {}),
    },
  });
}
