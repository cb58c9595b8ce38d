// The first statement of every run (run-agent.ts): the ticket, the policy settings in force, the
// corpus hash (the policy documents in effect), the order the ticket names and the conversation since its first message.
import type { TicketRoute } from "../../generated/prisma/enums";
import { driverOf, Prisma, sqlRows, type Db } from "../db";
import { CORPUS_HASH_NOW } from "../policy/corpus-hash";
import { POLICY_SETTING_KEYS } from "../policy/settings";
import { orderRowSql, type TOrderRow } from "./tools";
import type { TThreadMessage } from "./state";

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
  /** The corpus in effect as the run starts (lib/policy/corpus-hash.ts): its approvals are made under it. */
  corpusHash: string;
  /** The order the ticket names (orderRef), or null. */
  order: TOrderRow | null;
  /** The conversation after its first message (the body): follow-ups and reviewers' feedback, oldest first. */
  thread: TThreadMessage[];
  /** The salt of the customer the ticket's address belongs to (commitments in audit events); null: none. */
  salt: string | null;
}

// The messages the agent reads beside the body: the customer's follow-ups and reviewers' feedback
// (internal notes are between people; drafts and replies are the agent's own words).
const THREAD_SQL = Prisma.sql`(SELECT coalesce(json_agg(json_build_object('from', m.kind::text, 'id', m.id, 'at', m."createdAt", 'text', m.body) ORDER BY m."createdAt", m.id), '[]'::json)
      FROM "TicketMessage" m
      WHERE m."ticketId" = t.id AND m.kind IN ('customer', 'reviewer')
        AND m.id IS DISTINCT FROM (SELECT f.id FROM "TicketMessage" f WHERE f."ticketId" = t.id AND f.kind = 'customer' ORDER BY f."createdAt", f.id LIMIT 1))`;

/** The ticket, the policy settings in force, the corpus hash and the order the ticket names: one statement. */
export async function readTicket(client: Db, ticketId: string): Promise<TTicketRead | null> {
  if (!UUID.test(ticketId)) return null;
  // Straight on the driver, every column as text: the first statement of every run.
  const [row] = await sqlRows<
    Omit<TTicketRead, "number" | "settings" | "order" | "thread"> & {
      number: string;
      settings: string;
      order: string | null;
      thread: string;
    }
  >(
    driverOf(client),
    Prisma.sql`
    SELECT t.id::text, t.number, t."externalId", t.subject, t.body, t."customerEmail", t."orderRef", t.route::text AS route, t."bundleVersion", t."routeSignature",
           (SELECT coalesce(json_agg(json_build_object('key', s.key, 'value', s.value)), '[]'::json) FROM "Setting" s WHERE s.key = ANY(${POLICY_SETTING_KEYS}::text[])) AS settings,
           ${CORPUS_HASH_NOW} AS "corpusHash",
           ${orderRowSql(Prisma.sql`t."orderRef"`)} AS "order",
           ${THREAD_SQL} AS "thread",
           (SELECT c.salt FROM "Customer" c WHERE c.email = t."customerEmail") AS salt
    FROM "Ticket" t
    WHERE t.id = ${ticketId}::uuid`,
  );
  if (!row) return null;
  return {
    ...row,
    number: Number(row.number),
    settings: JSON.parse(row.settings) as TTicketRead["settings"],
    order: row.order === null ? null : (JSON.parse(row.order) as TOrderRow),
    thread: JSON.parse(row.thread) as TThreadMessage[],
  };
}
