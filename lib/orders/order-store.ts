// The Customer and Order rows lib/ writes, all of them here: every statement that inserts or changes
// a customer or an order goes through this store, so the tables' owner sees each write in one file.
// (The seeds in prisma/seed write the demo's and the bench's own.) Today the one writer is the
// grader, which gives each episode its own customer and a copy of a template order.
import type { PrismaClient } from "../../generated/prisma/client";
import { driverRows } from "../db";

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
