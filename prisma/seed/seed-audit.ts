// Audit streams written by a seed in bulk: with one chain per stream, a stream that does not exist yet
// can be hashed here, event by event at the times given, and inserted with its head in one statement
// (countersign_append_audit stamps now(), which history and bench data must not). Only for streams
// the seed creates whole: the statement leaves an existing head untouched.
import type { PrismaClient } from "../../generated/prisma/client";
import { auditContentHash, auditLinkHash, GENESIS_HASH, type TAuditInput } from "../../lib/audit/record-audit-event";
import { toJson } from "../../lib/db";

/** An event at its own time; its action one of lib/contracts/audit-actions.ts (the scale set's bench events use names of their own). */
export type TSeedEvent = Omit<TAuditInput, "action"> & { at: Date; action: string };

const STREAMS_SQL = `
WITH events AS (
  INSERT INTO "AuditEvent" ("at", "actorType", "actorId", "action", "subjectType", "subjectId", "ticketId", "inputs", "policyDecision",
                            "idempotencyKey", "stream", "streamSeq", "prevHash", "hash")
  SELECT x."at", x."actorType", x."actorId", x."action", x."subjectType", x."subjectId", x."ticketId"::uuid, x."inputs", x."policyDecision",
         x."idempotencyKey", x."stream", x."streamSeq", x."prevHash", x."hash"
  FROM jsonb_to_recordset($1::jsonb) AS x("at" timestamp(3), "actorType" text, "actorId" text, "action" text, "subjectType" text, "subjectId" text,
       "ticketId" text, "inputs" jsonb, "policyDecision" jsonb, "idempotencyKey" text, "stream" text, "streamSeq" bigint, "prevHash" text, "hash" text)
  RETURNING 1
), heads AS (
  INSERT INTO "AuditStream" ("stream", "events", "prevHash", "headHash")
  SELECT y."stream", y."events", y."prevHash", y."headHash" FROM jsonb_to_recordset($2::jsonb) AS y("stream" text, "events" bigint, "prevHash" text, "headHash" text)
  ON CONFLICT ("stream") DO NOTHING
  RETURNING 1
)
SELECT (SELECT count(*) FROM events)::int AS events`;

/** Inserts new streams, each event chained onto the one before it in its stream; answers how many events. */
export async function insertSeedStreams(
  client: Pick<PrismaClient, "$queryRawUnsafe">,
  streams: ReadonlyMap<string, readonly TSeedEvent[]>,
): Promise<number> {
  const rows: unknown[] = [];
  const heads: unknown[] = [];
  for (const [stream, events] of streams) {
    let prevHash = GENESIS_HASH;
    let before = GENESIS_HASH;
    events.forEach((event, k) => {
      // Json values as the database returns them (canonical, Dates as strings), so the hash holds.
      const inputs = event.inputs == null ? null : toJson(event.inputs);
      const policyDecision = event.policyDecision == null ? null : toJson(event.policyDecision);
      const fields = { ...event, actorId: event.actorId ?? null, subjectId: event.subjectId ?? null, ticketId: event.ticketId ?? null };
      const hash = auditLinkHash(
        prevHash,
        auditContentHash({ ...fields, inputs, policyDecision, idempotencyKey: event.idempotencyKey ?? null, stream }),
      );
      rows.push({
        ...fields,
        at: event.at.toISOString(),
        inputs,
        policyDecision,
        idempotencyKey: event.idempotencyKey ?? null,
        stream,
        streamSeq: k + 1,
        prevHash,
        hash,
      });
      before = prevHash;
      prevHash = hash;
    });
    if (events.length) heads.push({ stream, events: events.length, prevHash: before, headHash: prevHash });
  }
  if (rows.length === 0) return 0;
  const [row] = await client.$queryRawUnsafe<{ events: number }[]>(STREAMS_SQL, JSON.stringify(rows), JSON.stringify(heads));
  return row!.events;
}
