// The Customer and Order rows lib/ writes, all of them here, with the refunds made outside the app
// (ExternalRefund) and the orders API's deliveries (OrderDelivery): every statement that inserts or
// changes one goes through this store, so the tables' owner sees each write in one file. (The seeds
// in prisma/seed write the demo's and the bench's own.) The writers: the orders API
// (receive-orders.ts), the shop's order source (shopify-source.ts) and the grader, which gives each
// episode its own customer and a copy of a template order.
import type { PrismaClient } from "../../generated/prisma/client";
import { driverRows, Prisma, type DbTx } from "../db";

/** An order to copy: the columns a copy takes from it, and its customer (whose name and flag the copy's customer takes). */
export interface TOrderTemplate {
  id: string;
  customerId: string;
  columns: string[];
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Reads an order as a template to copy; throws when there is none. */
export async function readOrderTemplate(client: PrismaClient, orderId: string): Promise<TOrderTemplate> {
  const row = await client.order.findUniqueOrThrow({ where: { id: orderId } });
  // Every column of the template but its identity, its customer and its creation time, so a column
  // added to Order is copied without a change here.
  const columns = Object.keys(row).filter((c) => c !== "id" && c !== "customerId" && c !== "createdAt");
  return { id: row.id, customerId: row.customerId, columns };
}

/**
 * A new customer, with the template customer's name and flag under its own id and email, and its
 * copy of the template order: one statement, one round trip.
 */
export async function insertCustomerWithOrderCopy(
  client: PrismaClient,
  input: { template: TOrderTemplate; customerId: string; email: string; orderId: string },
): Promise<void> {
  const { template } = input;
  // The customer is inserted first within the statement (the order selects from it), so the order's
  // foreign key finds it.
  const rows = await driverRows(
    client,
    `WITH customer AS (
       INSERT INTO "Customer" ("id", "email", "name", "flagged")
       SELECT $1, $2, "name", "flagged" FROM "Customer" WHERE "id" = $3
       RETURNING "id")
     INSERT INTO "Order" ("id", "customerId", ${template.columns.map(quoteIdent).join(", ")})
     SELECT $4, customer."id", ${template.columns.map((c) => `t.${quoteIdent(c)}`).join(", ")}
     FROM "Order" t, customer WHERE t."id" = $5
     RETURNING "id"`,
    [input.customerId, input.email, template.customerId, input.orderId, template.id],
  );
  if (rows.length !== 1) throw new Error(`template order ${template.id} could not be copied`);
}

/** A moment as a UTC timestamp without time zone, as the tables keep them (never shifted by the session's time zone). */
function utc(at: Date | null): Prisma.Sql {
  return at === null ? Prisma.sql`NULL::timestamp` : Prisma.sql`(${at.toISOString()}::timestamptz AT TIME ZONE 'UTC')`;
}

/** A customer as its source gives it. `flagged` undefined: a new customer is not flagged, a known one keeps its flag. */
export interface TCustomerWrite {
  id: string;
  email: string;
  name: string;
  flagged?: boolean;
}

/** Inserts or replaces a customer; whether it was new. An email another customer has is a unique violation. */
export async function upsertCustomer(tx: DbTx, c: TCustomerWrite): Promise<{ created: boolean }> {
  const [row] = await tx.$queryRaw<{ created: boolean }[]>`
    INSERT INTO "Customer" ("id", "email", "name", "flagged")
    VALUES (${c.id}, ${c.email}, ${c.name}, ${c.flagged ?? false})
    ON CONFLICT ("id") DO UPDATE SET "email" = EXCLUDED."email", "name" = EXCLUDED."name",
      "flagged" = coalesce(${c.flagged ?? null}::boolean, "Customer"."flagged")
    RETURNING (xmax = 0) AS created`;
  return { created: row!.created };
}

/** An order as its source gives it, in integer minor units of its currency. */
export interface TOrderWrite {
  id: string;
  customerId: string;
  item: string;
  amountCents: number;
  currency: string;
  region: string;
  category: string;
  placedAt: Date;
  deliveredAt: Date | null;
  paymentReference: string | null;
  /** When it was read from the shop (null: delivered through the orders API). */
  sourceReadAt: Date | null;
}

/** Inserts or replaces an order (every column the source gives); whether it was new. */
export async function upsertOrder(tx: DbTx, o: TOrderWrite): Promise<{ created: boolean }> {
  const [row] = await tx.$queryRaw<{ created: boolean }[]>`
    INSERT INTO "Order" ("id", "customerId", "item", "amountCents", "currency", "region", "category", "placedAt", "deliveredAt", "paymentReference", "sourceReadAt")
    VALUES (${o.id}, ${o.customerId}, ${o.item}, ${o.amountCents}, ${o.currency}, ${o.region}, ${o.category},
            ${utc(o.placedAt)}, ${utc(o.deliveredAt)}, ${o.paymentReference}, ${utc(o.sourceReadAt)})
    ON CONFLICT ("id") DO UPDATE SET "customerId" = EXCLUDED."customerId", "item" = EXCLUDED."item",
      "amountCents" = EXCLUDED."amountCents", "currency" = EXCLUDED."currency", "region" = EXCLUDED."region",
      "category" = EXCLUDED."category", "placedAt" = EXCLUDED."placedAt", "deliveredAt" = EXCLUDED."deliveredAt",
      "paymentReference" = EXCLUDED."paymentReference", "sourceReadAt" = EXCLUDED."sourceReadAt"
    RETURNING (xmax = 0) AS created`;
  return { created: row!.created };
}

/** A refund made outside the app, as its source reports it. */
export interface TExternalRefundWrite {
  id: string;
  amountCents: number;
  at: Date;
  source: string;
}

/**
 * Records the refunds an order's source reports, each once by its id: a refund already recorded is
 * left as it is. Returns the ids recorded now, and those already recorded with other facts (another
 * order or amount) – which the caller refuses, rolling back.
 */
export async function recordExternalRefunds(
  tx: DbTx,
  orderId: string,
  refunds: readonly TExternalRefundWrite[],
): Promise<{ recorded: string[]; conflicting: string[] }> {
  if (refunds.length === 0) return { recorded: [], conflicting: [] };
  const values = refunds.map((r) => Prisma.sql`(${r.id}, ${orderId}, ${r.amountCents}::int, ${utc(r.at)}, ${r.source})`);
  const inserted = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO "ExternalRefund" ("id", "orderId", "amountCents", "at", "source")
    VALUES ${Prisma.join(values)}
    ON CONFLICT ("id") DO NOTHING
    RETURNING "id"`;
  const recorded = inserted.map((r) => r.id);
  const known = refunds.filter((r) => !recorded.includes(r.id));
  if (known.length === 0) return { recorded, conflicting: [] };
  const stored = await tx.externalRefund.findMany({ where: { id: { in: known.map((r) => r.id) } } });
  const conflicting = known
    .filter((r) => {
      const row = stored.find((s) => s.id === r.id);
      return !row || row.orderId !== orderId || row.amountCents !== r.amountCents;
    })
    .map((r) => r.id);
  return { recorded, conflicting };
}

/** The orders API's answer to a delivery, kept by its webhook-id. */
export interface TOrderDeliveryRow {
  webhookId: string;
  payloadHash: string;
  status: number;
  answer: Record<string, unknown>;
}

export async function readOrderDelivery(client: PrismaClient | DbTx, webhookId: string): Promise<TOrderDeliveryRow | null> {
  const row = await client.orderDelivery.findUnique({ where: { webhookId } });
  return row ? { ...row, answer: row.answer as Record<string, unknown> } : null;
}

/** Keeps a delivery's answer under its webhook-id; a concurrent delivery of the same id is a unique violation. */
export async function insertOrderDelivery(tx: DbTx, row: TOrderDeliveryRow): Promise<void> {
  await tx.orderDelivery.create({ data: { ...row, answer: row.answer as Prisma.InputJsonObject } });
}

/**
 * Erases a customer's personal values: name emptied, the email replaced by a placeholder no person
 * has, the salt of their commitments destroyed. Orders keep their amounts, items and times (the
 * ledger's evidence); they hold no address. Returns the row's former email, or null when there is no
 * such customer or it was erased already.
 */
export async function eraseCustomerRow(tx: DbTx, customerId: string, placeholderEmail: string): Promise<string | null> {
  const rows = await tx.$queryRaw<{ email: string }[]>`
    UPDATE "Customer" c SET "name" = '', "email" = ${placeholderEmail}, "salt" = NULL, "erasedAt" = now()
    FROM (SELECT id, email FROM "Customer" WHERE id = ${customerId} AND "erasedAt" IS NULL FOR UPDATE) old
    WHERE c.id = old.id
    RETURNING old.email`;
  return rows[0]?.email ?? null;
}

/** Places or lifts a legal hold on a customer not erased; true when the hold changed. */
export async function setCustomerLegalHold(tx: DbTx, customerId: string, hold: boolean): Promise<boolean> {
  const { count } = await tx.customer.updateMany({
    where: { id: customerId, erasedAt: null, legalHold: !hold },
    data: { legalHold: hold },
  });
  return count === 1;
}
