// Queue search: a ticket by its number, by words of its subject and body, by a fragment of the
// customer's email or of the order id. Every ticket is searched, resolved ones included.
//
// - Words: full-text search (english) with each word a prefix, over the GIN index on the stored
//   vector searchWords (kept by a trigger; migration 20261123040000_ticket_search).
// - Fragments: LIKE '%…%' on lower(customerEmail) and lower(orderRef), over trigram GIN indexes
//   (pg_trgm). Shorter than three characters, a fragment cannot use them and is not tried.
// - The branches are OR'ed, so PostgreSQL combines the indexes in one bitmap; results are newest
//   first, keyset-paged over (createdAt, id) like the queue.
import { db as defaultDb, Prisma, type Db } from "../db";
import { keysetPage, type TKeysetCursor } from "../db/keyset";
import { completeRows, QUEUE_PAGE_SIZE, ROW_SELECT, type TQueuePage } from "./list-tickets";
import { bodySnippet, containsPattern, highlightTerms, prefixTsQuery, searchTerms } from "./search-terms";

export type TSearchPage = TQueuePage & Required<Pick<TQueuePage, "highlight" | "snippets">>;

function matchCondition(text: string): Prisma.Sql | null {
  const { number, words, fragment } = searchTerms(text);
  const branches: Prisma.Sql[] = [];
  if (number !== null) branches.push(Prisma.sql`"number" = ${number}`);
  const tsquery = prefixTsQuery(words);
  if (tsquery) branches.push(Prisma.sql`"searchWords" @@ to_tsquery('english'::regconfig, ${tsquery})`);
  if (fragment) {
    const pattern = containsPattern(fragment);
    branches.push(Prisma.sql`lower("customerEmail") LIKE ${pattern}`, Prisma.sql`lower("orderRef") LIKE ${pattern}`);
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

export async function searchTickets(input: { q: string; cursor?: TKeysetCursor; pageSize?: number; client?: Db }): Promise<TSearchPage> {
  const client = input.client ?? defaultDb();
  const pageSize = input.pageSize ?? QUEUE_PAGE_SIZE;
  const asOf = new Date();
  const highlight = highlightTerms(input.q);
  const match = matchCondition(input.q);
  if (!match) return { rows: [], newerCursor: null, olderCursor: null, asOf, highlight, snippets: {} };

  const direction = input.cursor?.direction ?? "older";
  const order = direction === "older" ? Prisma.sql`"createdAt" DESC, "id" DESC` : Prisma.sql`"createdAt" ASC, "id" ASC`;
  const hits = await client.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "Ticket" WHERE ${match} AND ${beyondCursor(input.cursor)} ORDER BY ${order} LIMIT ${pageSize + 1}`;
  const found = await client.ticket.findMany({ where: { id: { in: hits.map((h) => h.id) } }, select: { ...ROW_SELECT, body: true } });
  const byId = new Map(found.map((t) => [t.id, t]));
  const fetched = hits.flatMap((h) => byId.get(h.id) ?? []);

  const page = keysetPage(fetched, pageSize, input.cursor);
  if (page.reachedNewest && input.cursor) return searchTickets({ ...input, cursor: undefined });
  const snippets = Object.fromEntries(page.rows.map((r) => [r.id, bodySnippet(r.body, highlight)]));
  const rows = await completeRows(client, page.rows.map(({ body: _body, ...row }) => row), asOf);
  return { rows, newerCursor: page.newerCursor, olderCursor: page.olderCursor, asOf, highlight, snippets };
}
