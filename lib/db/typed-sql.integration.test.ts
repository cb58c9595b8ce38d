// Typed SQL on the project's own driver: a statement Kysely builds runs as one counted round trip, its
// rows come back as the text the row type says, and a boolean reads the same however it came back.
import { describe, expect, expectTypeOf, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { seedDemo } from "../../prisma/seed/demo";
import { driverOf } from ".";
import { isTrue, runTyped, typed, type TBooleanText, type TRowText } from "./typed-sql";

const testDb = useTestDb(seedDemo);

describe("typed SQL", () => {
  it("types a row from the schema as the driver's text", () => {
    expectTypeOf<TRowText<"ApprovalRequest", "approvalsRequired" | "status" | "draft">>().toEqualTypeOf<{
      approvalsRequired: string;
      status: "pending" | "approved" | "rejected" | "expired" | "superseded";
      draft: string | null;
    }>();
    expectTypeOf<TRowText<"User", "active">>().toEqualTypeOf<{ active: TBooleanText }>();
  });

  it("runs a built statement on the driver as one round trip, every column as its text", async () => {
    const { client, roundTrips } = testDb();
    const before = roundTrips.count;
    const rows = await runTyped(
      driverOf(client),
      typed.selectFrom("Order").select(["id", "amountCents", "createdAt"]).where("amountCents", ">", 0).orderBy("id").limit(2),
    );
    expect(roundTrips.count - before).toBe(1);
    expect(rows).toHaveLength(2);
    expect(typeof rows[0]!.amountCents).toBe("string");
    expect(Number(rows[0]!.amountCents)).toBeGreaterThan(0);
    expect(rows[0]!.createdAt).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
  });

  it("reads a boolean as the column's text and as its ::text cast alike", async () => {
    const rows = await driverOf(testDb().client).rows<{ raw: TBooleanText; cast: TBooleanText; no: TBooleanText }>(
      `SELECT "active" AS "raw", "active"::text AS "cast", (NOT "active")::text AS "no" FROM "User" WHERE "active" LIMIT 1`,
    );
    expect(isTrue(rows[0]!.raw)).toBe(true);
    expect(isTrue(rows[0]!.cast)).toBe(true);
    expect(isTrue(rows[0]!.no)).toBe(false);
    expect(isTrue(null)).toBe(false);
  });
});
