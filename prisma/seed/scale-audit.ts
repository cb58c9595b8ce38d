// The scale set's audit trail (npm run db:seed -- --scale): ten events on each scale ticket's stream,
// 1,000,000 in all, for the bench of /audit and `npm run audit:verify` at that size. With one chain per
// stream the events can be hashed here and inserted in bulk: each batch of tickets is one statement
// (events and stream heads), atomic and skipped on a re-run. They are bench data, not history: no
// effect stands behind them, so none of them is a refund execution (the ledger cross-check stays clean).
import type { PrismaClient } from "../../generated/prisma/client";
import { insertSeedStreams, type TSeedEvent } from "./seed-audit";

export const SCALE_EVENTS_PER_TICKET = 10;
const ACTIONS = ["ticket.created", "run.started", ...Array<string>(6).fill("run.tool_called"), "run.finished", "approval.requested"];

/** Adds the audit events of every scale ticket that has none yet. Returns the number added. */
export async function seedScaleAudit(
  client: PrismaClient,
  options: { batchTickets?: number; onProgress?: (line: string) => void } = {},
): Promise<number> {
  const batchTickets = options.batchTickets ?? 2_000;
  const log = options.onProgress ?? (() => {});
  const tickets = await client.$queryRaw<{ id: string; createdAt: Date; seeded: boolean }[]>`
    SELECT t."id"::text, t."createdAt", EXISTS (SELECT 1 FROM "AuditStream" s WHERE s."stream" = 'ticket:' || t."id") AS "seeded"
    FROM "Ticket" t WHERE t."externalId" LIKE 'scale-%' ORDER BY t."externalId"`;
  const todo = tickets.filter((t) => !t.seeded);
  let added = 0;
  const started = Date.now();
  for (let i = 0; i < todo.length; i += batchTickets) {
    const streams = new Map<string, TSeedEvent[]>();
    for (const ticket of todo.slice(i, i + batchTickets)) {
      const events = ACTIONS.map((action, k): TSeedEvent => ({
        at: new Date(ticket.createdAt.getTime() + k * 60_000),
        actorType: k === 0 ? "api" : "agent",
        action,
        subjectType: "ticket",
        subjectId: ticket.id,
        ticketId: ticket.id,
        inputs: { step: k + 1 },
      }));
      streams.set(`ticket:${ticket.id}`, events);
    }
    const row = { events: await insertSeedStreams(client, streams) };
    added += row.events;
    log(
      `  audit events +${added.toLocaleString("en-US")} (${Math.min(i + batchTickets, todo.length).toLocaleString("en-US")}/${todo.length.toLocaleString("en-US")} tickets) · ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }
  if (added > 0) await client.$executeRawUnsafe(`ANALYZE "AuditEvent", "AuditStream"`);
  return added;
}
