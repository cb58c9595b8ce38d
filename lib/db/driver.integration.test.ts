// The driver path (driver.ts) answers alike on PGlite and PostgreSQL: text columns, a transaction that
// rolls back when its work throws, prepared statements that run again, and a unique violation that
// reads as one wherever it comes from.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { driverOf, isUniqueViolation, Prisma, sqlRows } from "./index";
import { preparedSql, prismaSqlTx, timestampFromText } from "./driver";

const testDb = useTestDb();

const CUSTOMER = preparedSql(`SELECT "email", "createdAt"::text AS "createdAt", (1 + 1)::text AS "two" FROM "Customer" WHERE "id" = $1`);

async function customer(email: string) {
  return testDb().client.customer.create({ data: { id: randomUUID(), email, name: "Driver Test" } });
}

describe("the driver path", () => {
  it("answers every column as text, and a timestamp's text reads back as the stored instant", async () => {
    const made = await customer(`text-${Date.now()}@example.com`);
    const driver = driverOf(testDb().client);
    // The same prepared statement twice: the second run executes the statement prepared by the first.
    for (let i = 0; i < 2; i++) {
      const [row] = await driver.rows<{ email: string; createdAt: string; two: string }>(CUSTOMER, [made.id]);
      expect(row).toEqual({ email: made.email, createdAt: expect.any(String), two: "2" });
      expect(timestampFromText(row!.createdAt).getTime()).toBe(made.createdAt.getTime());
    }
  });

  it("runs a Prisma.sql statement on the driver, a Date as the UTC time it names whatever the process's time zone", async () => {
    const zone = process.env.TZ;
    // pg renders a Date in the process's time zone ("…T03:00:00.000-05:00"), which a timestamp
    // without time zone would read as 03:00: sqlRows sends the ISO string instead.
    process.env.TZ = "America/New_York";
    try {
      const at = new Date("2026-11-24T08:00:00.000Z");
      const [row] = await sqlRows<{ at: string; words: string }>(
        driverOf(testDb().client),
        Prisma.sql`SELECT ${at}::timestamp(3)::text AS "at", array_to_string(${["a", "b"]}::text[], '+') AS "words"`,
      );
      expect(row).toEqual({ at: "2026-11-24 08:00:00", words: "a+b" });
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it("rolls back everything a transaction wrote when its work throws, and keeps it when it returns", async () => {
    const driver = driverOf(testDb().client);
    const insert = `INSERT INTO "Customer" ("id", "email", "name") VALUES (gen_random_uuid()::text, $1, 'Driver Test') RETURNING "id"`;
    const lost = `lost-${Date.now()}@example.com`;
    await expect(
      driver.transaction(async (tx) => {
        await tx.rows(insert, [lost]);
        throw new Error("the work failed");
      }),
    ).rejects.toThrow("the work failed");
    expect(await testDb().client.customer.count({ where: { email: lost } })).toBe(0);

    const kept = `kept-${Date.now()}@example.com`;
    const [row] = await driver.transaction((tx) => tx.rows<{ id: string }>(insert, [kept]));
    expect(await testDb().client.customer.findUnique({ where: { email: kept } })).toMatchObject({ id: row!.id });
  });

  it("reads a unique violation as one, from the driver and through a Prisma transaction alike", async () => {
    const taken = await customer(`taken-${Date.now()}@example.com`);
    const insert = `INSERT INTO "Customer" ("id", "email", "name") VALUES (gen_random_uuid()::text, $1, 'Driver Test')`;
    const fromDriver = await driverOf(testDb().client)
      .transaction((tx) => tx.rows(insert, [taken.email]))
      .catch((error: unknown) => error);
    expect(isUniqueViolation(fromDriver)).toBe(true);
    const fromPrisma = await testDb()
      .client.$transaction((tx) => prismaSqlTx(tx).rows(insert, [taken.email]))
      .catch((error: unknown) => error);
    expect(isUniqueViolation(fromPrisma)).toBe(true);
    // Any other failure is not one.
    const other = await driverOf(testDb().client)
      .rows("SELECT 1 / 0")
      .catch((error: unknown) => error);
    expect(isUniqueViolation(other)).toBe(false);
  });
});
