// Erasure of what the runs kept about a customer: the draft, the feedback they quoted, the evidence
// they gathered and every step's arguments and result (a tool's observation can quote the ticket).
// Statuses, reasons, budgets, costs and times stay: they are the runs' record, not the customer's.
import type { DbTx } from "../../db";

export async function eraseRunRows(tx: DbTx, ticketIds: string[]): Promise<number> {
  const runs = await tx.$queryRaw<{ id: string }[]>`
    UPDATE "AgentRun" SET "draft" = NULL, "feedback" = NULL, "evidence" = NULL
    WHERE "ticketId" = ANY(${ticketIds}::uuid[]) RETURNING id`;
  if (runs.length === 0) return 0;
  await clearTraceRows(
    tx,
    runs.map((r) => r.id),
  );
  return runs.length;
}

/** Clears these runs' step traces (arguments and results): what retention removes from old runs. */
export async function clearTraceRows(tx: DbTx, runIds: string[]): Promise<void> {
  await tx.$executeRaw`UPDATE "TraceEvent" SET "args" = '{}'::jsonb, "result" = NULL WHERE "runId" = ANY(${runIds}::uuid[])`;
}
