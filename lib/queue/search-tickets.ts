// Queue search: a ticket by its number, by words of its subject and body, by a fragment of the
// customer's email or of the order id. Every ticket is searched, resolved ones included.
//
// - Words: full-text search (english) with each word a prefix, over the GIN index on the stored
//   vector searchWords (kept by a trigger; migration 20261123040000_ticket_search).
// - Fragments: LIKE '%…%' over the distinct emails and order ids (TicketSearchKey, a trigram GIN
//   index, pg_trgm), then the tickets holding the matched values by equality through btree indexes.
//   Shorter than three characters, a fragment cannot use trigrams and is not tried.
// - A hyphenated word with a digit ("ORD-S00420") is matched as the one lexeme the parser keeps for it.
// - The branches are OR'ed, so PostgreSQL combines the indexes in one bitmap; results are newest
//   first, keyset-paged over (createdAt, id) like the queue (matchingIds says how they are read).
import { db as defaultDb, Prisma, type Db } from "../db";
import { keysetPage, type TKeysetCursor } from "../db/keyset";
import { completeRows, QUEUE_PAGE_SIZE, ROW_SELECT, type TQueuePage } from "./list-tickets";
import { bodySnippet, compoundTsQuery, containsPattern, highlightTerms, prefixTsQuery, searchTerms } from "./search-terms";

export type TSearchPage = TQueuePage & Required<Pick<TQueuePage, "highlight" | "snippets">>;

/**
 * How a plan tests the matched emails and order ids: `index` as an array the plan computes once and
 * probes the btree indexes with (the gathering); `row` as a hashed subplan, for plans that test
 * ticket after ticket (the walks), where a fragment matching thousands of emails ("gmail") would
 * otherwise be a scan of that array for every ticket.
 */
type TKeyTest = "index" | "row";

function matchCondition(text: string, keyTest: TKeyTest = "index"): Prisma.Sql | null {
  const { number, words, compounds, fragment } = searchTerms(text);
  const branches: Prisma.Sql[] = [];
  if (number !== null) branches.push(Prisma.sql`"number" = ${number}`);
  const tsquery = prefixTsQuery(words);
  const compound = compoundTsQuery(compounds);
  const queries = [
    ...(tsquery ? [Prisma.sql`to_tsquery('english'::regconfig, ${tsquery})`] : []),
    ...(compound ? [Prisma.sql`${compound}::tsquery`] : []),
  ];
  if (queries.length) branches.push(Prisma.sql`"searchWords" @@ (${Prisma.join(queries, " && ")})`);
  if (fragment) {
    // The matched emails and order ids first (TicketSearchKey, a small trigram index), then the
    // tickets holding them by equality: an array the plan computes once and probes btree indexes with.
    const pattern = containsPattern(fragment);
    const keys = (kind: "email" | "order") =>
      Prisma.sql`SELECT "key" FROM "TicketSearchKey" WHERE "kind" = ${kind} AND "key" LIKE ${pattern}`;
    const holds = (column: Prisma.Sql, kind: "email" | "order") =>
      keyTest === "index" ? Prisma.sql`${column} = ANY(ARRAY(${keys(kind)}))` : Prisma.sql`${column} IN (${keys(kind)})`;
    branches.push(holds(Prisma.sql`lower("customerEmail")`, "email"), holds(Prisma.sql`lower("orderRef")`, "order"));
  }
  return branches.length ? Prisma.sql`(${Prisma.join(branches, " OR ")})` : null;
}

function beyondCursor(cursor: TKeysetCursor | undefined): Prisma.Sql {
  if (!cursor) return Prisma.sql`TRUE`;
  // The redundant bound on createdAt lets the planner start an index scan at the cursor (keyset.ts).
  return cursor.direction === "older"
    ? Prisma.sql`"createdAt" <= ${cursor.createdAt}::timestamp AND ("createdAt", "id") < (${cursor.createdAt}::timestamp, ${cursor.id}::uuid)`
    : Prisma.sql`"createdAt" >= ${cursor.createdAt}::timestamp AND ("createdAt", "id") > (${cursor.createdAt}::timestamp, ${cursor.id}::uuid)`;
}

/** Up to this many matches are gathered and sorted; a search matching more reads tickets in order instead. */
export const GATHER_AT_MOST = 2_000;
/** A search of plain words first walks at most this many of the newest tickets in order (matchingIds). */
export const WALK_AT_MOST = 10_000;

/**
 * The ids of the first `take` matching tickets in `order`, by whichever of three plans suits the search.
 * PostgreSQL cannot estimate how many tickets a fragment or a rare word matches (it guesses about 1 %),
 * so left to itself it walks the tickets newest first and tests each: quick when matches are dense
 * ("refund"), slow when they are few and old (an order id: half the table read). So the matches are
 * first gathered without an order, at most GATHER_AT_MOST of them – through the indexes when they are
 * few, a scan that stops early when they are many – and sorted; only a search that fills the gathering
 * (matches are dense, so the walk is short) takes the ordered walk. One statement, two for broad ones.
 *
 * A search of plain words (no digit: not an id, a number or most email fragments) is usually dense –
 * "refund", "described" – and gathering 2,000 matches to keep 26 is the slow part then; so is the
 * ordered walk after it when the newest tickets do not match (a common word of older tickets, behind
 * a day of tickets without it: three statements). So it first walks the newest tickets in order, at
 * most `walkAtMost` of them (WALK_AT_MOST), testing each and stopping as soon as the page is full:
 * when it fills, no older ticket can come before those matches and that is the answer; otherwise the
 * plans above follow. At about half a microsecond a ticket, the walk costs a rare word a few
 * milliseconds before the gathering finds its matches.
 */
async function matchingIds(
  client: Db,
  match: Record<TKeyTest, Prisma.Sql>,
  beyond: Prisma.Sql,
  order: Prisma.Sql,
  take: number,
  gatherAtMost: number,
  walkAtMost: number,
): Promise<{ id: string }[]> {
  if (walkAtMost > 0) {
    // The outer query reads the inner one lazily: it stops at the page's worth of matches.
    const newest = await client.$queryRaw<{ id: string }[]>`
      SELECT "id" FROM (SELECT "id", "createdAt", "number", "searchWords", "customerEmail", "orderRef" FROM "Ticket" WHERE ${beyond} ORDER BY ${order} LIMIT ${walkAtMost}) AS "newest"
      WHERE ${match.row} ORDER BY ${order} LIMIT ${take}`;
    if (newest.length === take) return newest;
  }
  const gathered = await client.$queryRaw<{ id: string; gathered: number }[]>`
    WITH "gathered" AS MATERIALIZED (SELECT "id", "createdAt" FROM "Ticket" WHERE ${match.index} AND ${beyond} LIMIT ${gatherAtMost})
    SELECT "id", (SELECT count(*) FROM "gathered")::int AS "gathered" FROM "gathered" ORDER BY ${order} LIMIT ${take}`;
  if ((gathered[0]?.gathered ?? 0) < gatherAtMost) return gathered;
  return client.$queryRaw<{ id: string }[]>`SELECT "id" FROM "Ticket" WHERE ${match.row} AND ${beyond} ORDER BY ${order} LIMIT ${take}`;
}

export async function searchTickets(input: {
  q: string;
  cursor?: TKeysetCursor;
  pageSize?: number;
  /** Where gathering gives way to the ordered walk (GATHER_AT_MOST); both give the same page. */
  gatherAtMost?: number;
  /**
   * How many of the newest tickets to walk first, at most: by default WALK_AT_MOST for a search with
   * no digit and 0 (no walk) for one with a digit; the same page either way.
   */
  walkAtMost?: number;
  client?: Db;
}): Promise<TSearchPage> {
  const client = input.client ?? defaultDb();
  const pageSize = input.pageSize ?? QUEUE_PAGE_SIZE;
  const asOf = new Date();
  const highlight = highlightTerms(input.q);
  const match = matchCondition(input.q);
  const matchByRow = matchCondition(input.q, "row");
  if (!match || !matchByRow) return { rows: [], newerCursor: null, olderCursor: null, asOf, highlight, snippets: {} };

  const direction = input.cursor?.direction ?? "older";
  const order = direction === "older" ? Prisma.sql`"createdAt" DESC, "id" DESC` : Prisma.sql`"createdAt" ASC, "id" ASC`;
  const hits = await matchingIds(
    client,
    { index: match, row: matchByRow },
    beyondCursor(input.cursor),
    order,
    pageSize + 1,
    input.gatherAtMost ?? GATHER_AT_MOST,
    input.walkAtMost ?? (/\p{N}/u.test(input.q) ? 0 : WALK_AT_MOST),
  );
  const found = await client.ticket.findMany({ where: { id: { in: hits.map((h) => h.id) } }, select: { ...ROW_SELECT, body: true } });
  const byId = new Map(found.map((t) => [t.id, t]));
  const fetched = hits.flatMap((h) => byId.get(h.id) ?? []);

  const page = keysetPage(fetched, pageSize, input.cursor);
  if (page.reachedNewest && input.cursor) return searchTickets({ ...input, cursor: undefined });
  const snippets = Object.fromEntries(page.rows.map((r) => [r.id, bodySnippet(r.body, highlight)]));
  const rows = await completeRows(
    client,
    page.rows.map(({ body: _body, ...row }) => row),
    asOf,
  );
  return { rows, newerCursor: page.newerCursor, olderCursor: page.olderCursor, asOf, highlight, snippets };
}
