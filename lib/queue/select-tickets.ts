// "Select all in this view": the tickets a queue page lists, from its first page on, up to what one
// bulk action takes. The same queries as the page (a view, a search, or the queue's filters), read
// with a bigger page, so the selection is exactly what paging through the view would show.
import { db as defaultDb, type Db } from "../db";
import { listTickets, type TQueueQuery } from "./list-tickets";
import { listView } from "./list-view";
import { searchTickets } from "./search-tickets";

export interface TSelection {
  ticketIds: string[];
  /** The view holds more than were selected (its oldest first for views, newest first otherwise). */
  more: boolean;
}

/** At most `limit` tickets: what one bulk action takes (lib/agent/batches.ts decides). */
export async function selectTicketsInView(input: {
  query: Omit<TQueueQuery, "cursor">;
  userId: string;
  limit: number;
  client?: Db;
}): Promise<TSelection> {
  const client = input.client ?? defaultDb();
  const pageSize = input.limit;
  const { q, view, status, reason } = input.query;
  const page = q
    ? await searchTickets({ q, pageSize, client })
    : view
      ? await listView({ view, userId: input.userId, pageSize, client })
      : await listTickets({ status, reason, pageSize, client });
  // A first page has a cursor onwards only when there is more: newer for the views (oldest first),
  // older for the queue and search (newest first).
  const more = (page.order === "oldest" ? page.newerCursor : page.olderCursor) !== null;
  return { ticketIds: page.rows.map((row) => row.id), more };
}
