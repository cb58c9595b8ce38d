// A delivery to the orders API killed half-way: the process dies after its order row is written and
// before its transaction commits. On real PostgreSQL (PGlite is one session), when DATABASE_URL is set.
import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { webhookHeaders } from "../../testing/intake";
import { customerBody, orderBody } from "../../testing/orders";
import { killHard, spawnTs } from "../../testing/spawn-ts";
import { receiveOrders } from "./receive-orders";

const testDb = useTestDb();
const SECRET = "orders-crash-secret-0123456789abcdef0123";
const onPostgres = !!process.env.DATABASE_URL;

function deliver(resource: "order" | "customer", id: string, raw: string, headers: Record<string, string>) {
  return receiveOrders(
    { resource, id, rawBody: Buffer.from(raw), headers: new Headers(headers), address: null },
    { secrets: [SECRET], toleranceSeconds: 300 },
  );
}

describe.skipIf(!onPostgres)("a delivery to the orders API killed before it commits", () => {
  it("leaves nothing behind, and its retry under the same webhook-id is applied once", async () => {
    const db = testDb();
    const customer = JSON.stringify(customerBody("crash"));
    expect((await deliver("customer", "CUS-CRASH", customer, webhookHeaders(customer, SECRET))).status).toBe(201);
    const other = JSON.stringify(orderBody("CUS-CRASH"));
    expect((await deliver("order", "ORD-CRASH-OTHER", other, webhookHeaders(other, SECRET))).status).toBe(201);

    // Another session inserts the refund id the delivery reports, and holds it uncommitted: the
    // delivery's transaction writes its order row, then waits on that id's unique index.
    const { PrismaClient } = await import("../../generated/prisma/client");
    const { PrismaPg } = await import("@prisma/adapter-pg");
    const holder = new PrismaClient({ adapter: new PrismaPg({ connectionString: db.url!, max: 1 }) });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const holding = holder
      .$transaction(
        async (tx) => {
          await tx.$executeRaw`INSERT INTO "ExternalRefund" ("id", "orderId", "amountCents", "at", "source") VALUES ('crash-r1', 'ORD-CRASH-OTHER', 100, now(), 'shop')`;
          await held;
          throw new Error("rolled back on purpose");
        },
        { timeout: 60_000 },
      )
      .catch((error: Error) => error.message);

    const raw = JSON.stringify(
      orderBody("CUS-CRASH", { refunds: [{ id: "crash-r1", amountCents: 1_200, at: new Date().toISOString(), source: "shop" }] }),
    );
    const headers = webhookHeaders(raw, SECRET, { id: "msg_crash_1" });
    const child = spawnTs("testing/deliver-order.ts", [db.url!, SECRET, "ORD-CRASH", raw, JSON.stringify(headers)]);
    let output = "";
    child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
    // Until the delivery waits on the held refund id, its order row written in its open transaction.
    const waiting = () =>
      db.client.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND locktype = 'transactionid'`;
    for (let i = 0; i < 300 && (await waiting())[0]!.n === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect((await waiting())[0]!.n).toBe(1);
    await killHard(child);
    release();
    expect(await holding).toBe("rolled back on purpose");
    await holder.$disconnect();
    expect(output).toBe("");

    // Nothing of the killed delivery was committed: no order, no refund, no answer kept, no audit event.
    for (
      let i = 0;
      i < 40 &&
      (
        await db.client.$queryRaw<
          { n: number }[]
        >`SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'idle in transaction (aborted)' OR wait_event_type = 'Lock'`
      )[0]!.n > 0;
      i++
    )
      await new Promise((r) => setTimeout(r, 50));
    expect(await db.client.order.findUnique({ where: { id: "ORD-CRASH" } })).toBeNull();
    expect(await db.client.externalRefund.count({ where: { id: "crash-r1" } })).toBe(0);
    expect(await db.client.orderDelivery.count({ where: { webhookId: "msg_crash_1" } })).toBe(0);
    expect(await db.client.auditEvent.count({ where: { subjectId: "ORD-CRASH" } })).toBe(0);

    // The shop's system sends it again (same webhook-id, signed anew): applied, once.
    const retry = webhookHeaders(raw, SECRET, { id: "msg_crash_1" });
    expect(await deliver("order", "ORD-CRASH", raw, retry)).toEqual({
      status: 201,
      body: { orderId: "ORD-CRASH", created: true, refundsRecorded: ["crash-r1"] },
    });
    expect(await deliver("order", "ORD-CRASH", raw, retry)).toMatchObject({ status: 201 });
    expect(await db.client.externalRefund.findMany({ where: { orderId: "ORD-CRASH" } })).toMatchObject([
      { id: "crash-r1", amountCents: 1_200 },
    ]);
    expect(await db.client.auditEvent.count({ where: { subjectId: "ORD-CRASH", action: "order.upserted" } })).toBe(1);
  }, 60_000);
});
