// Retention: what has been kept past its period (lib/policy/retention-settings.ts) is erased, in
// batches, each batch audited with what it erased (ticket ids and counts, never a value). A resolved
// ticket past its period loses its personal text everywhere, as in a customer's erasure; a run's step
// traces past theirs lose their arguments and results. A legal hold on the ticket, or on the customer
// it belongs to, suspends both. Run by the `retention` job, daily; idempotent (an erased ticket is
// not read again).
import { db, Prisma, type Db, type DbTx } from "../db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { loadRetentionSettings, RETENTION_TICKETS_KEY, RETENTION_TRACES_KEY } from "../policy/retention-settings";
import { clearTraceRows } from "../agent/store/run-erasure";
import { eraseTickets } from "./erase-customer";

const DAY_MS = 86_400_000;
export const RETENTION_BATCH = 200;

export interface TRetentionResult {
  tickets: number;
  traces: number;
}

/** Neither the ticket nor its customer (by address or by an order of theirs) is under a legal hold. */
const NOT_HELD = Prisma.sql`NOT t."legalHold" AND NOT EXISTS (
  SELECT 1 FROM "Customer" c
   WHERE c."legalHold" AND (c."email" = t."customerEmail" OR EXISTS (SELECT 1 FROM "Order" o WHERE o."customerId" = c.id AND upper(o.id) = upper(t."orderRef"))))`;

export async function applyRetention(input: { client?: Db; now?: Date; batchSize?: number } = {}): Promise<TRetentionResult> {
  const client = input.client ?? db();
  const now = input.now ?? new Date();
  const batchSize = input.batchSize ?? RETENTION_BATCH;
  const settings = await loadRetentionSettings(client);
  const ticketsBefore = new Date(now.getTime() - settings[RETENTION_TICKETS_KEY] * DAY_MS);
  const tracesBefore = new Date(now.getTime() - settings[RETENTION_TRACES_KEY] * DAY_MS);
  const result: TRetentionResult = { tickets: 0, traces: 0 };
  for (;;) {
    const n = await client.$transaction((tx) => eraseExpiredTickets(tx, ticketsBefore, batchSize));
    result.tickets += n;
    if (n < batchSize) break;
  }
  for (;;) {
    const n = await client.$transaction((tx) => clearExpiredTraces(tx, tracesBefore, batchSize));
    result.traces += n;
    if (n < batchSize) break;
  }
  return result;
}

async function eraseExpiredTickets(tx: DbTx, before: Date, batchSize: number): Promise<number> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT t.id FROM "Ticket" t
     WHERE t."status" = 'resolved' AND t."erasedAt" IS NULL AND t."updatedAt" < ${before} AND ${NOT_HELD}
     ORDER BY t."updatedAt" LIMIT ${batchSize} FOR UPDATE OF t SKIP LOCKED`;
  if (rows.length === 0) return 0;
  const ticketIds = rows.map((r) => r.id);
  await auditRetention(tx, "tickets", before, { ticketIds });
  await eraseTickets(tx, ticketIds);
  return ticketIds.length;
}

async function clearExpiredTraces(tx: DbTx, before: Date, batchSize: number): Promise<number> {
  const rows = await tx.$queryRaw<{ runId: string }[]>`
    SELECT r.id AS "runId" FROM "AgentRun" r JOIN "Ticket" t ON t.id = r."ticketId"
     WHERE r."startedAt" < ${before} AND ${NOT_HELD}
       AND EXISTS (SELECT 1 FROM "TraceEvent" e WHERE e."runId" = r.id AND (e."args" <> '{}'::jsonb OR e."result" IS NOT NULL))
     ORDER BY r."startedAt" LIMIT ${batchSize} FOR UPDATE OF r SKIP LOCKED`;
  if (rows.length === 0) return 0;
  const runIds = rows.map((r) => r.runId);
  await auditRetention(tx, "traces", before, { runIds });
  await clearTraceRows(tx, runIds);
  return runIds.length;
}

/** One batch's event, before its effect in the same transaction: what kind, up to when, and the ids. */
function auditRetention(tx: DbTx, kind: "tickets" | "traces", before: Date, ids: { ticketIds: string[] } | { runIds: string[] }) {
  const count = "ticketIds" in ids ? ids.ticketIds.length : ids.runIds.length;
  return recordAuditEvent(tx, {
    actorType: "system",
    actorId: "retention",
    action: "retention.applied",
    subjectType: "retention",
    subjectId: kind,
    inputs: { kind, count, before: before.toISOString(), ...ids },
  });
}
