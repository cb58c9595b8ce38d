// Keyset ("seek") pagination over (createdAt, id), newest first. A page starts strictly after or
// before the row a cursor names, so a page costs the same at row 50 and at row 90,000 (OFFSET would
// read and discard every row before it), and rows inserted meanwhile neither repeat nor vanish.
import { z } from "zod";

export type TKeysetDirection = "older" | "newer";

export interface TKeysetCursor {
  /** older: rows after this one in newest-first order; newer: rows before it. */
  direction: TKeysetDirection;
  createdAt: Date;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An opaque URL-safe token: direction, creation time in ms and id. */
export function encodeCursor(cursor: TKeysetCursor): string {
  return Buffer.from(`${cursor.direction === "older" ? "o" : "n"}.${cursor.createdAt.getTime()}.${cursor.id}`, "utf8").toString(
    "base64url",
  );
}

export function decodeCursor(token: string): TKeysetCursor | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(token)) return null;
  const [dir, ms, id, ...rest] = Buffer.from(token, "base64url").toString("utf8").split(".");
  if (rest.length || (dir !== "o" && dir !== "n") || !ms || !/^\d{1,15}$/.test(ms) || !id || !UUID.test(id)) return null;
  return { direction: dir === "o" ? "older" : "newer", createdAt: new Date(Number(ms)), id };
}

/** A query-string cursor: absent, empty, or a token decodeCursor accepts. */
export const ZCursorParam = z
  .string()
  .optional()
  .transform((value, ctx) => {
    if (!value) return undefined;
    const cursor = decodeCursor(value);
    if (!cursor) {
      ctx.addIssue({ code: "custom", message: "is not a valid page cursor" });
      return z.NEVER;
    }
    return cursor;
  });

/**
 * The Prisma where-clause for rows beyond the cursor. The redundant `createdAt <= t` (or `>=`) is what
 * lets PostgreSQL start the index scan at the cursor: it cannot derive a range from the OR alone and
 * would otherwise walk every newer row of the index before reaching the page.
 */
export function keysetWhere(cursor: TKeysetCursor | undefined) {
  if (!cursor) return {};
  const { createdAt, id } = cursor;
  return cursor.direction === "older"
    ? { createdAt: { lte: createdAt }, OR: [{ createdAt: { lt: createdAt } }, { createdAt, id: { lt: id } }] }
    : { createdAt: { gte: createdAt }, OR: [{ createdAt: { gt: createdAt } }, { createdAt, id: { gt: id } }] };
}

/** Newest first; ascending when fetching the page before a cursor (reversed afterwards). */
export function keysetOrder(direction: TKeysetDirection = "older") {
  const dir = direction === "older" ? ("desc" as const) : ("asc" as const);
  return [{ createdAt: dir }, { id: dir }];
}

/** Sorts rows newest first by (createdAt, id), as the database does. */
export function compareNewestFirst(a: { createdAt: Date; id: string }, b: { createdAt: Date; id: string }): number {
  const byTime = b.createdAt.getTime() - a.createdAt.getTime();
  if (byTime !== 0) return byTime;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/**
 * Turns `pageSize + 1` rows fetched in the cursor's direction into a newest-first page and the
 * cursors of the pages on either side (null where there is nothing more).
 */
export function keysetPage<T extends { createdAt: Date; id: string }>(
  fetched: T[],
  pageSize: number,
  cursor: TKeysetCursor | undefined,
): { rows: T[]; newerCursor: string | null; olderCursor: string | null; reachedNewest: boolean } {
  const more = fetched.length > pageSize;
  const direction = cursor?.direction ?? "older";
  const rows = direction === "older" ? fetched.slice(0, pageSize) : fetched.slice(0, pageSize).reverse();
  const first = rows[0];
  const last = rows.at(-1);
  // Going older, there is something newer exactly when we started from a cursor; going newer, the
  // cursor's own row is older than this page.
  const hasNewer = direction === "older" ? cursor !== undefined : more;
  const hasOlder = direction === "older" ? more : true;
  return {
    rows,
    newerCursor: hasNewer && first ? encodeCursor({ direction: "newer", createdAt: first.createdAt, id: first.id }) : null,
    olderCursor: hasOlder && last ? encodeCursor({ direction: "older", createdAt: last.createdAt, id: last.id }) : null,
    reachedNewest: direction === "newer" && !more,
  };
}
