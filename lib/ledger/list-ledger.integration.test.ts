import { beforeAll, describe, expect, it } from "vitest";
import { makeOrder } from "../../testing/fixtures";
import { parseCsv } from "../../testing/csv";
import { useTestDb } from "../../testing/db";
import { decodeCursor } from "../db/keyset";
import { csvField, exportLedgerCsv, LEDGER_CSV_COLUMNS } from "./export-ledger-csv";
import { listLedger, ZLedgerFilters, type TLedgerFilters } from "./list-ledger";

const testDb = useTestDb();
const onDatabase = process.env.DATABASE_URL ? "PostgreSQL" : "PGlite";

async function csv(filters: TLedgerFilters = {}, batchSize?: number): Promise<string> {
  let text = "";
  for await (const chunk of exportLedgerCsv({ filters, batchSize })) text += chunk;
  return text;
}

const DAY = Date.parse("2026-10-01T00:00:00.000Z");
const at = (day: number, hour: number) => new Date(DAY + day * 86_400_000 + hour * 3_600_000);
let userId = "";
let orderA = "";
let orderB = "";
const WEIRD_ORDER = 'ORD-"odd", one\nline';

beforeAll(async () => {
  const { client } = testDb();
  const user = await client.user.create({
    data: { email: "sam@example.com", name: "Sam Specialist", role: "SPECIALIST", passwordHash: "x" },
  });
  userId = user.id;
  orderA = (await makeOrder(client, { amountCents: 100_000 })).id;
  orderB = (await makeOrder(client, { amountCents: 100_000 })).id;
  const weird = await makeOrder(client);
  await client.order.create({
    data: { id: WEIRD_ORDER, customerId: weird.customerId, item: "x", category: "c", amountCents: 5000, placedAt: new Date() },
  });
  await client.order.create({
    data: { id: "=HYPERLINK(1)", customerId: weird.customerId, item: "x", category: "c", amountCents: 5000, placedAt: new Date() },
  });
  const rows = [
    { orderId: orderA, amountCents: 7900, day: 0, hour: 9, actorType: "user", actorId: userId },
    { orderId: orderA, amountCents: 1000, day: 0, hour: 23, actorType: "system", actorId: "autonomy-dial" },
    { orderId: orderB, amountCents: 65000, day: 1, hour: 0, actorType: "user", actorId: userId },
    { orderId: orderB, amountCents: 250, day: 2, hour: 12, actorType: "system", actorId: "autonomy-dial", currency: "EUR" },
    { orderId: WEIRD_ORDER, amountCents: 1999, day: 3, hour: 1, actorType: "user", actorId: userId },
    { orderId: "=HYPERLINK(1)", amountCents: 100, day: 3, hour: 2, actorType: "user", actorId: userId },
  ];
  for (const [i, r] of rows.entries()) {
    await client.ledgerEntry.create({
      data: {
        idempotencyKey: `refund:test-${i}`,
        orderId: r.orderId,
        amountCents: r.amountCents,
        currency: r.currency ?? "USD",
        actorType: r.actorType,
        actorId: r.actorId,
        createdAt: at(r.day, r.hour),
      },
    });
  }
  // Twelve entries at one instant: the id breaks the tie, and paging must neither repeat nor skip.
  for (let i = 0; i < 12; i++) {
    await client.ledgerEntry.create({
      data: {
        idempotencyKey: `refund:tie-${i}`,
        orderId: orderB,
        amountCents: 100,
        currency: "USD",
        actorType: "system",
        createdAt: at(5, 0),
      },
    });
  }
});

describe(`listLedger (${onDatabase})`, () => {
  it("lists newest first with totals per currency and the actor's name", async () => {
    const { rows, totals, olderCursor } = await listLedger({});
    expect(rows).toHaveLength(18);
    expect(olderCursor).toBeNull();
    expect(rows.map((r) => r.createdAt.getTime())).toEqual([...rows.map((r) => r.createdAt.getTime())].sort((a, b) => b - a));
    expect(totals).toEqual({
      count: 18,
      byCurrency: [
        { currency: "EUR", amountCents: 250, count: 1 },
        { currency: "USD", amountCents: 7900 + 1000 + 65000 + 1999 + 100 + 1200, count: 17 },
      ],
    });
    expect(rows.find((r) => r.orderId === WEIRD_ORDER)).toMatchObject({ actorName: "Sam Specialist", actorType: "user" });
    expect(rows.find((r) => r.actorType === "system")).toMatchObject({ actorName: null });
  });

  it("filters by order, by inclusive UTC days and by actor; totals follow the filters", async () => {
    const byOrder = await listLedger({ filters: { orderId: orderA } });
    expect(byOrder.rows.map((r) => r.amountCents)).toEqual([1000, 7900]);
    expect(byOrder.totals.byCurrency).toEqual([{ currency: "USD", amountCents: 8900, count: 2 }]);

    const day0 = await listLedger({ filters: { from: "2026-10-01", to: "2026-10-01" } });
    expect(day0.rows.map((r) => r.amountCents)).toEqual([1000, 7900]); // 23:00 is still that day
    const days12 = await listLedger({ filters: { from: "2026-10-02", to: "2026-10-03" } });
    expect(days12.rows.map((r) => r.amountCents)).toEqual([250, 65000]); // 00:00 of the 2nd counts

    const byUser = await listLedger({ filters: { actor: userId } });
    expect(byUser.totals.count).toBe(4);
    const bySystem = await listLedger({ filters: { actor: "system", to: "2026-10-04" } });
    expect(bySystem.rows.map((r) => r.amountCents)).toEqual([250, 1000]);

    expect((await listLedger({ filters: { orderId: "ORD-none" } })).totals).toEqual({ count: 0, byCurrency: [] });
  });

  it("pages with no duplicates across a run of equal timestamps", async () => {
    const all = (await listLedger({})).rows.map((r) => r.id);
    const ids: string[] = [];
    let page = await listLedger({ pageSize: 5 });
    ids.push(...page.rows.map((r) => r.id));
    while (page.olderCursor) {
      page = await listLedger({ pageSize: 5, cursor: decodeCursor(page.olderCursor)! });
      ids.push(...page.rows.map((r) => r.id));
      expect(page.totals.count).toBe(18); // totals cover the filter, not the page
    }
    expect(ids).toEqual(all);
  });

  it("refuses an inverted date range and malformed dates", () => {
    expect(ZLedgerFilters.safeParse({ from: "2026-10-05", to: "2026-10-01" }).success).toBe(false);
    expect(ZLedgerFilters.safeParse({ from: "yesterday" }).success).toBe(false);
    expect(ZLedgerFilters.parse({ orderId: "", from: "", to: "", actor: "" })).toEqual({});
  });
});

describe(`ledger CSV (${onDatabase})`, () => {
  it("escapes commas, quotes and line breaks, and defuses formulas", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("cr\r\nlf")).toBe('"cr\r\nlf"');
    expect(csvField("=SUM(A1)")).toBe("'=SUM(A1)");
    expect(csvField("-1+1")).toBe("'-1+1");
    expect(csvField(null)).toBe("");
    expect(csvField(42)).toBe("42");
  });

  it("exports every row with a header, in batches, and reads back exactly", async () => {
    const text = await csv({}, 4);
    const rows = parseCsv(text);
    expect(rows[0]).toEqual([...LEDGER_CSV_COLUMNS]);
    expect(rows).toHaveLength(1 + 18);
    const listed = (await listLedger({})).rows;
    expect(rows.slice(1).map((r) => r[1])).toEqual(listed.map((r) => r.id));

    const weird = rows.find((r) => r[2] === WEIRD_ORDER)!;
    expect(weird).toBeDefined();
    expect(weird[3]).toBe("19.99");
    expect(weird[8]).toBe("Sam Specialist");
    expect(rows.find((r) => r[2] === "'=HYPERLINK(1)")).toBeDefined();
    expect(text).toContain('"ORD-""odd"", one\nline"');
  });

  it("applies the same filters as the page", async () => {
    const rows = parseCsv(await csv({ orderId: orderA }));
    expect(rows.slice(1).map((r) => [r[2], r[3], r[6]])).toEqual([
      [orderA, "10.00", "system"],
      [orderA, "79.00", "user"],
    ]);
    expect(parseCsv(await csv({ orderId: "ORD-none" }))).toEqual([[...LEDGER_CSV_COLUMNS]]);
  });
  it("names each refund's provider, the provider's refund id, its state there and the provider's reason", async () => {
    const { client } = testDb();
    const order = await makeOrder(client, { amountCents: 20_000 });
    const written = [
      { key: "refund:csv-ledger", provider: "ledger-only", providerRefundId: null, state: "succeeded", failureReason: null, hour: 1 },
      { key: "refund:csv-stripe", provider: "stripe", providerRefundId: "re_csv123", state: "pending", failureReason: null, hour: 2 },
      {
        key: "refund:csv-shop",
        provider: "shopify",
        providerRefundId: "gid://shopify/Refund/77",
        state: "failed",
        failureReason: "declined",
        hour: 3,
      },
    ] as const;
    for (const w of written)
      await client.ledgerEntry.create({
        data: {
          idempotencyKey: w.key,
          orderId: order.id,
          amountCents: 1000,
          currency: "USD",
          actorType: "system",
          actorId: "refund-worker",
          provider: w.provider,
          providerRefundId: w.providerRefundId,
          state: w.state,
          failureReason: w.failureReason,
          createdAt: at(5, w.hour),
        },
      });
    const records = parseCsv(await csv({ orderId: order.id }));
    const column = (name: (typeof LEDGER_CSV_COLUMNS)[number]) => LEDGER_CSV_COLUMNS.indexOf(name);
    expect(
      records
        .slice(1)
        .map((r) => [
          r[column("idempotency_key")],
          r[column("provider")],
          r[column("provider_refund_id")],
          r[column("state")],
          r[column("failure_reason")],
        ]),
    ).toEqual([
      ["refund:csv-shop", "shopify", "gid://shopify/Refund/77", "failed", "declined"],
      ["refund:csv-stripe", "stripe", "re_csv123", "pending", ""],
      ["refund:csv-ledger", "ledger-only", "", "succeeded", ""],
    ]);
  });
});
