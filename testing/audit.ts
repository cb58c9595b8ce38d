// Helpers for tests of audit checkpoints.
import type { PrismaClient } from "../generated/prisma/client";
import type { TAuditAction } from "../lib/contracts/audit-actions";
import { auditStream } from "../lib/audit/record-audit-event";

/**
 * Waits until no transaction older than the newest audit event is still running anywhere on the
 * server, so that a checkpoint taken now covers every event written so far. Transaction ids are
 * server-wide: on PostgreSQL other test files' transactions (some deliberately left open until a
 * process is killed) hold the horizon back for a while.
 */
export async function untilCheckpointCoversAll(client: PrismaClient, timeoutMs = 25_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const [row] = await client.$queryRaw<{ covered: boolean }[]>`
      SELECT (pg_snapshot_xmin(pg_current_snapshot()))::text::bigint > coalesce((SELECT max(txid) FROM "AuditEvent"), 0) AS covered`;
    if (row!.covered) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`a transaction on the server stayed open for ${timeoutMs / 1000} s`);
}

/** An action name only tests write (`test.<name>`): deliberately outside the app's closed list
 * (lib/contracts/audit-actions.ts), for tests of the chain itself. */
export function testAuditAction(name: string): TAuditAction {
  return `test.${name}` as TAuditAction;
}

/**
 * Holds the ticket's audit stream row (FOR UPDATE) in a transaction of its own until `release` is
 * called: callers started meanwhile read what they read, then wait at their audit event. `release`
 * ends the hold and resolves once its transaction has ended.
 */
export async function holdTicketStream(client: PrismaClient, ticketId: string): Promise<{ release: () => Promise<void> }> {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let locked!: () => void;
  const holding = new Promise<void>((r) => (locked = r));
  const holder = client.$transaction(
    async (tx) => {
      await tx.$queryRaw`SELECT "stream" FROM "AuditStream" WHERE "stream" = ${auditStream({ ticketId, subjectType: "ticket", subjectId: ticketId })} FOR UPDATE`;
      locked();
      await held;
    },
    { timeout: 30_000 },
  );
  await holding;
  return {
    release: async () => {
      release();
      await holder;
    },
  };
}
