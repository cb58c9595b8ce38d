// The scale set's audit trail (npm run db:seed -- --scale): ten events on each scale ticket's stream,
// 1,000,000 in all, for the bench of /audit and `npm run audit:verify` at that size. With one chain per
// stream the events can be hashed here and inserted in bulk: each batch of tickets is one statement
// (events and stream heads), atomic and skipped on a re-run. They are bench data, not history: no
// effect stands behind them, so none of them is a refund execution (the ledger cross-check stays clean).
import type { PrismaClient } from "../../generated/prisma/client";
import { auditContentHash, auditLinkHash, GENESIS_HASH } from "../../lib/audit/record-audit-event";
import { toJson } from "../../lib/db";

export const SCALE_EVENTS_PER_TICKET = 10;
const ACTIONS = ["ticket.created", "run.started", ...Array<string>(6).fill("run.tool_called"), "run.finished", "approval.requested"];

const BATCH_SQL = `
WITH events AS (
  INSERT INTO "AuditEvent" ("at", "actorType", "action", "subjectType", "subjectId", "ticketId", "inputs", "stream", "streamSeq", "prevHash", "hash")
  SELECT x."at", x."actorType", x."action", 'ticket', x."ticketId", x."ticketId"::uuid, x."inputs", x."stream", x."streamSeq", x."prevHash", x."hash"
  FROM jsonb_to_recordset($1::jsonb) AS x("at" timestamp(3), "actorType" text, "action" text, "ticketId" text, "inputs" jsonb, "stream" text, "streamSeq" bigint, "prevHash" text, "hash" text)
  RETURNING 1
), heads AS (
  INSERT INTO "AuditStream" ("stream", "events", "prevHash", "headHash")
  SELECT y."stream", y."events", y."prevHash", y."headHash" FROM jsonb_to_recordset($2::jsonb) AS y("stream" text, "events" bigint, "prevHash" text, "headHash" text)
  ON CONFLICT ("stream") DO NOTHING
  RETURNING 1
)
SELECT (SELECT count(*) FROM events)::int AS events`;

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
    const events: unknown[] = [];
    const heads: unknown[] = [];
    for (const ticket of todo.slice(i, i + batchTickets)) {
      const stream = `ticket:${ticket.id}`;
      let prevHash = GENESIS_HASH;
      let last = GENESIS_HASH;
      ACTIONS.forEach((action, k) => {
        const at = new Date(ticket.createdAt.getTime() + k * 60_000);
        const actorType = k === 0 ? ("api" as const) : ("agent" as const);
        const inputs = toJson({ step: k + 1 });
        const hash = auditLinkHash(
          prevHash,
          auditContentHash({ at, actorType, action, subjectType: "ticket", subjectId: ticket.id, ticketId: ticket.id, inputs, stream }),
        );
        events.push({ at: at.toISOString(), actorType, action, ticketId: ticket.id, inputs, stream, streamSeq: k + 1, prevHash, hash });
        last = prevHash;
        prevHash = hash;
      });
      heads.push({ stream, events: ACTIONS.length, prevHash: last, headHash: prevHash });
    }
    const [row] = await client.$queryRawUnsafe<{ events: number }[]>(BATCH_SQL, JSON.stringify(events), JSON.stringify(heads));
    added += row!.events;
    log(
      `  audit events +${added.toLocaleString("en-US")} (${Math.min(i + batchTickets, todo.length).toLocaleString("en-US")}/${todo.length.toLocaleString("en-US")} tickets) · ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }
  if (added > 0) await client.$executeRawUnsafe(`ANALYZE "AuditEvent", "AuditStream"`);
  return added;
}
