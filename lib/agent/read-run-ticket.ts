// The first statement of every run (run-agent.ts): the ticket, the policy settings in force, the
// corpus hash (the policy documents in effect) and the order the ticket names.
import type { TicketRoute } from "../../generated/prisma/enums";
import { driverOf, Prisma, sqlRows, type Db } from "../db";
import { CORPUS_HASH_NOW } from "../policy/corpus-hash";
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
  /** The corpus in effect as the run starts (lib/policy/corpus-hash.ts): its approvals are made under it. */
  corpusHash: string;
  /** The order the ticket names (orderRef), or null. */
  order: TOrderRow | null;
}

/** The ticket, the policy settings in force, the corpus hash and the order the ticket names: one statement. */
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
           ${CORPUS_HASH_NOW} AS "corpusHash",
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
