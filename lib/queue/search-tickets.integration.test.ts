import { beforeAll, describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { decodeCursor } from "../db/keyset";
import { searchTickets, type TSearchPage } from "./search-tickets";

const testDb = useTestDb();
const BASE = Date.parse("2026-11-01T12:00:00.000Z");

const ticket = (i: number, fields: { subject?: string; body?: string; customerEmail?: string; orderRef?: string | null } = {}) => ({
  source: "seed" as const,
  subject: fields.subject ?? `Question ${i}`,
  body: fields.body ?? `Filler text number ${i}.`,
  customerEmail: fields.customerEmail ?? `filler-${i}@example.net`,
  orderRef: fields.orderRef === undefined ? `ORD-F${String(i).padStart(4, "0")}` : fields.orderRef,
  route: "guarded_agent" as const,
  bundleVersion: "intake-rules-2026.11",
  admission: "admitted" as const,
  status: i % 2 ? ("resolved" as const) : ("needs_human" as const),
  createdAt: new Date(BASE + i * 60_000),
});

async function walk(q: string, gatherAtMost?: number, walkNewestFirst?: boolean): Promise<TSearchPage[]> {
  const walkAtMost = walkNewestFirst === undefined ? undefined : walkNewestFirst ? gatherAtMost : 0;
  const pages = [await searchTickets({ q, pageSize: 7, gatherAtMost, walkAtMost })];
  while (pages.at(-1)!.olderCursor) {
    pages.push(await searchTickets({ q, pageSize: 7, gatherAtMost, walkAtMost, cursor: decodeCursor(pages.at(-1)!.olderCursor!)! }));
    if (pages.length > 50) throw new Error("paging does not end");
  }
  return pages;
}

const subjects = (page: TSearchPage) => page.rows.map((r) => r.subject);

beforeAll(async () => {
  const { client } = testDb();
  await client.ticket.createMany({
    data: [
      ...Array.from({ length: 40 }, (_, i) => ticket(i)),
      ticket(100, {
        subject: "Tablet arrived cracked",
        body: "The screen was scratched when I opened the box.",
        customerEmail: "Ana.Kowalski@Example.org",
        orderRef: "ORD-1042",
      }),
      ticket(101, { subject: "Wrong colour", body: "I ordered blue and got green.", customerEmail: "bo_lind@example.org", orderRef: null }),
      ticket(102, { subject: "Percent sign", body: "A 100% refund please.", customerEmail: "boXlind@example.org", orderRef: "ORD-2077" }),
      // 23 tickets sharing a word, for paging.
      ...Array.from({ length: 23 }, (_, i) => ticket(200 + i, { body: `Parcel ${i} went missing in transit.` })),
    ],
  });
});

describe("searchTickets", () => {
  it("finds a ticket by its number, with or without #", async () => {
    const { number } = await testDb().client.ticket.findFirstOrThrow({ where: { subject: "Wrong colour" } });
    expect(subjects(await searchTickets({ q: `#${number}` }))).toContain("Wrong colour");
    expect(subjects(await searchTickets({ q: String(number) }))).toContain("Wrong colour");
  });

  it("finds words of the subject and body, as prefixes, whatever their form", async () => {
    expect(subjects(await searchTickets({ q: "scratch" }))).toEqual(["Tablet arrived cracked"]);
    expect(subjects(await searchTickets({ q: "Cracked tablet" }))).toEqual(["Tablet arrived cracked"]);
    expect(subjects(await searchTickets({ q: "tablet green" }))).toEqual([]);
  });

  it("finds a fragment of the customer's email, in any case, and of the order id", async () => {
    expect(subjects(await searchTickets({ q: "kowal" }))).toEqual(["Tablet arrived cracked"]);
    expect(subjects(await searchTickets({ q: "ana.kowalski@example" }))).toEqual(["Tablet arrived cracked"]);
    expect(subjects(await searchTickets({ q: "ord-104" }))).toEqual(["Tablet arrived cracked"]);
    expect(subjects(await searchTickets({ q: "2077" }))).toEqual(["Percent sign"]);
  });

  it("takes LIKE wildcards and tsquery syntax literally", async () => {
    // "_" would match any character: boXlind as well as bo_lind.
    expect(subjects(await searchTickets({ q: "bo_lind" }))).toEqual(["Wrong colour"]);
    expect(subjects(await searchTickets({ q: "100%" }))).toEqual(["Percent sign"]);
    await expect(searchTickets({ q: "refund & | ! ' :* (" })).resolves.toBeDefined();
    expect((await searchTickets({ q: "%%%" })).rows).toEqual([]);
  });

  it("pages through every match newest first, each once, resolved tickets included", async () => {
    const pages = await walk("parcel missing");
    const rows = pages.flatMap((p) => p.rows);
    expect(rows).toHaveLength(23);
    expect(new Set(rows.map((r) => r.id)).size).toBe(23);
    expect(rows.map((r) => r.createdAt.getTime())).toEqual(rows.map((r) => r.createdAt.getTime()).sort((a, b) => b - a));
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(["resolved", "needs_human"]));
    const back = await searchTickets({ q: "parcel missing", pageSize: 7, cursor: decodeCursor(pages[2]!.newerCursor!)! });
    expect(back.rows.map((r) => r.id)).toEqual(pages[1]!.rows.map((r) => r.id));
  });

  it("gives the same pages whether it gathers the matches and sorts them, walks the tickets in order, or tries the newest first", async () => {
    // 23 matches: gathered whole by default; with room for 5, gathering fills up and the walk answers;
    // trying the newest 5 or 40 tickets first answers some pages there and falls back for the others.
    for (const q of ["parcel missing", "filler", "ord-f00", "kowal"]) {
      const gathered = await walk(q, undefined, false);
      const ids = (pages: TSearchPage[]) => pages.map((p) => [p.rows.map((r) => r.id), p.newerCursor, p.olderCursor]);
      expect(ids(await walk(q, 5, false)), q).toEqual(ids(gathered));
      expect(ids(await walk(q, 5, true)), q).toEqual(ids(gathered));
      expect(ids(await walk(q, 40, true)), q).toEqual(ids(gathered));
    }
  });

  it("finds an order id written in the body as one word, and not its parts apart", async () => {
    const { client } = testDb();
    await client.ticket.create({
      data: ticket(300, { subject: "Mentions an order", body: "About ORD-Z7731 and nothing else.", orderRef: null }),
    });
    await client.ticket.create({ data: ticket(301, { subject: "Parts apart", body: "ORD is a word; z7731 is another.", orderRef: null }) });
    expect(subjects(await searchTickets({ q: "ORD-Z7731" }))).toEqual(["Mentions an order"]);
    expect(subjects(await searchTickets({ q: "ord-z77" }))).toEqual(["Mentions an order"]);
  });

  it("finds the fragments of a new or changed email and order id (the search keys follow the tickets)", async () => {
    const { client } = testDb();
    const created = await client.ticket.create({
      data: ticket(310, { subject: "New customer", customerEmail: "Zoe.Quill@Example.com", orderRef: "ORD-Q0310" }),
    });
    expect(subjects(await searchTickets({ q: "zoe.qu" }))).toEqual(["New customer"]);
    expect(subjects(await searchTickets({ q: "q031" }))).toEqual(["New customer"]);
    await client.ticket.update({ where: { id: created.id }, data: { customerEmail: "zoe.moved@example.com", orderRef: "ORD-Q0999" } });
    expect(subjects(await searchTickets({ q: "zoe.mov" }))).toEqual(["New customer"]);
    expect(subjects(await searchTickets({ q: "q0999" }))).toEqual(["New customer"]);
    // The old values stay as keys but hold no ticket now.
    expect(subjects(await searchTickets({ q: "zoe.qu" }))).toEqual([]);
  });

  it("keeps the words of a changed subject or body, and matches the new ones", async () => {
    const { client } = testDb();
    const t = await client.ticket.findFirstOrThrow({ where: { subject: "Wrong colour" }, select: { id: true } });
    await client.ticket.update({ where: { id: t.id }, data: { body: "I ordered blue and got turquoise." } });
    expect(subjects(await searchTickets({ q: "turquoise" }))).toEqual(["Wrong colour"]);
    expect(subjects(await searchTickets({ q: "green" }))).toEqual([]);
  });

  it("returns the body around the match and the terms to mark", async () => {
    const page = await searchTickets({ q: "Scratched" });
    expect(page.highlight).toEqual(["scratched"]);
    expect(page.snippets[page.rows[0]!.id]).toBe("The screen was scratched when I opened the box.");
  });

  it("reads the words' and the fragments' indexes, not the whole table", async () => {
    const { client } = testDb();
    // On a table this small a sequential scan is cheaper; forbidding it shows whether the indexes fit
    // the query's expressions at all.
    const plan = await client.$transaction(async (tx) => {
      await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
      return tx.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(
        `EXPLAIN SELECT id FROM "Ticket" WHERE "searchWords" @@ to_tsquery('english'::regconfig, 'tablet:*')
           OR lower("customerEmail") = ANY(ARRAY(SELECT "key" FROM "TicketSearchKey" WHERE "kind" = 'email' AND "key" LIKE '%kowal%'))
           OR lower("orderRef") = ANY(ARRAY(SELECT "key" FROM "TicketSearchKey" WHERE "kind" = 'order' AND "key" LIKE '%kowal%'))`,
      );
    });
    const text = plan.map((r) => r["QUERY PLAN"]).join("\n");
    expect(text).toContain("Ticket_search_words_idx");
    // The fragment against the distinct values (on a table this small through its primary key; at
    // scale through their trigrams), then the tickets by equality.
    expect(text).toMatch(/Index Scan (using|on) "TicketSearchKey_(key_trgm_idx|pkey)"/);
    expect(text).not.toContain("Seq Scan");
    expect(text).toContain("Ticket_lower_customerEmail_createdAt_idx");
    expect(text).toContain("Ticket_lower_orderRef_idx");
  });
});
