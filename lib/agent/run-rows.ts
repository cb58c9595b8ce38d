// The statements of a run's start and end (run-agent.ts), as parts of larger statements (what they
// write to the approvals' tables is in run-approval-writes.ts): each
// row goes in as one JSON value (canonical JSON, read back with jsonb_populate_record, so every value
// takes its column's own type) by a data-modifying CTE that may depend on the rest of the statement.
// Timestamps travel as ISO strings, which a timestamp column without time zone reads as the UTC
// wall-clock time they name.
import type { TicketRoute } from "../../generated/prisma/enums";
import { driverOf, Prisma, sqlRows, type Db } from "../db";
import { canonicalJson } from "../contracts/canonical";
import { POLICY_SETTING_KEYS } from "../policy/settings";
import { orderRowSql, type TOrderRow } from "./tools";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface TTicketRead {
  id: string;
  number: number;
  externalId: string | null;
  subject: string;
  body: string;
  customerEmail: string;
  orderRef: string | null;
  route: TicketRoute;
  bundleVersion: string;
  routeSignature: string | null;
  /** The stored policy settings (lib/policy/settings.ts, policySettingsFrom). */
  settings: { key: string; value: unknown }[];
  /** The order the ticket names (orderRef), or null. */
  order: TOrderRow | null;
}

/** The ticket, the policy settings in force and the order the ticket names: one statement. */
export async function readTicket(client: Db, ticketId: string): Promise<TTicketRead | null> {
  if (!UUID.test(ticketId)) return null;
  // Straight on the driver, every column as text: the first statement of every run.
  const [row] = await sqlRows<
    Omit<TTicketRead, "number" | "settings" | "order"> & { number: string; settings: string; order: string | null }
  >(
    driverOf(client),
    Prisma.sql`
    SELECT t.id::text, t.number, t."externalId", t.subject, t.body, t."customerEmail", t."orderRef", t.route::text AS route, t."bundleVersion", t."routeSignature",
           (SELECT coalesce(json_agg(json_build_object('key', s.key, 'value', s.value)), '[]'::json) FROM "Setting" s WHERE s.key = ANY(${POLICY_SETTING_KEYS}::text[])) AS settings,
           ${orderRowSql(Prisma.sql`t."orderRef"`)} AS "order"
    FROM "Ticket" t
    WHERE t.id = ${ticketId}::uuid`,
  );
  if (!row) return null;
  return {
    ...row,
    number: Number(row.number),
    settings: JSON.parse(row.settings) as TTicketRead["settings"],
    order: row.order === null ? null : (JSON.parse(row.order) as TOrderRow),
  };
}

const where = (when: Prisma.Sql | undefined) => (when ? Prisma.sql`WHERE ${when}` : Prisma.empty);

/** CTE `run_row`: the run's row, inserted only `when` the rest of the statement holds. */
export function insertRunCte(row: Record<string, unknown>, when?: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`run_row AS (
    INSERT INTO "AgentRun" ("id", "ticketId", "mode", "planner", "status", "reason", "agentVersion", "bundleVersion", "policyVersion", "manifest", "budgets", "startedById", "batchId", "startedAt", "finishedAt", "leaseOwner", "leaseExpiresAt")
    SELECT r."id", r."ticketId", r."mode", r."planner", r."status", r."reason", r."agentVersion", r."bundleVersion", r."policyVersion", r."manifest", r."budgets", r."startedById", r."batchId", r."startedAt", r."finishedAt", r."leaseOwner", r."leaseExpiresAt"
    FROM jsonb_populate_record(NULL::"AgentRun", ${canonicalJson(row)}::jsonb) r
    ${where(when)}
    RETURNING id)`;
}

/**
 * CTE `run_ended`: the run's end, written only while the run is still running – a run the sweep
 * interrupted (its lease lost) matches nothing, and `EXISTS (SELECT 1 FROM run_ended)` is false.
 */
export function endRunCte(runId: string, end: Record<string, unknown>): Prisma.Sql {
  return Prisma.sql`run_ended AS (
    UPDATE "AgentRun" r SET "status" = x."status", "reason" = x."reason", "stepsUsed" = x."stepsUsed", "tokensUsed" = x."tokensUsed", "elapsedMs" = x."elapsedMs",
                            "evidence" = x."evidence", "citations" = x."citations", "draft" = x."draft", "finishedAt" = x."finishedAt", "leaseExpiresAt" = NULL
    FROM jsonb_populate_record(NULL::"AgentRun", ${canonicalJson(end)}::jsonb) x
    WHERE r.id = ${runId}::uuid AND r."status" = 'running'
    RETURNING r.id)`;
}
