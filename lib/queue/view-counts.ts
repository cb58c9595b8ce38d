// How many tickets each queue view holds, read at most once per VIEW_COUNTS_MAX_AGE_MS and shared by
// every page view meanwhile (the read in flight included), as the evaluations page shares its charts'
// numbers: the counts scan the ticket table, which at 100,000 tickets is most of a view's cost.
// The counts shared by everyone are one statement; "Mine" is each person's own, cached per person.
import { db as defaultDb, Prisma, type Db } from "../db";
import { loadApprovalVersions, staleRequestSql } from "../policy/approval-versions";
import type { TQueueView } from "./queue-views";

export const VIEW_COUNTS_MAX_AGE_MS = 10_000;

export type TViewCounts = Record<TQueueView, number> & { asOf: Date };

type TShared = Omit<TViewCounts, "mine" | "asOf">;
interface TKept<T> {
  at: number;
  value: Promise<T>;
}

const shared = new WeakMap<Db, TKept<TShared>>();
const mine = new WeakMap<Db, Map<string, TKept<number>>>();

/** `read` again when the kept value is older than the limit (or from a clock set back); a failed read is not kept. */
function remembered<T>(
  store: { get(): TKept<T> | undefined; set(kept: TKept<T>): void; drop(kept: TKept<T>): void },
  now: number,
  maxAgeMs: number,
  read: () => Promise<T>,
): { value: Promise<T>; at: number } {
  const kept = store.get();
  if (kept && now - kept.at >= 0 && now - kept.at < maxAgeMs) return kept;
  const fresh = { at: now, value: read() };
  store.set(fresh);
  fresh.value.catch(() => store.drop(fresh));
  return fresh;
}

async function readShared(client: Db): Promise<TShared> {
  const { current } = await loadApprovalVersions(client);
  const [row] = await client.$queryRaw<Record<Exclude<TQueueView, "mine">, bigint>[]>(Prisma.sql`
    WITH pending AS (SELECT "ticketId", "requiredRole", ${staleRequestSql(current)} AS "stale" FROM "ApprovalRequest" WHERE "status" = 'pending')
    SELECT
      count(*) FILTER (WHERE t."status" <> 'resolved') AS "open",
      count(*) FILTER (WHERE t."status" <> 'resolved' AND t."assigneeId" IS NULL) AS "unassigned",
      count(*) FILTER (WHERE t."status" = 'bypassed') AS "bypassed",
      count(*) FILTER (WHERE t."status" IN ('needs_human', 'blocked') AND p."ticketId" IS NULL) AS "handoff",
      count(p."ticketId") AS "approval",
      count(*) FILTER (WHERE p."requiredRole" = 'SPECIALIST') AS "specialist",
      count(*) FILTER (WHERE p."stale") AS "stale"
    FROM "Ticket" t LEFT JOIN pending p ON p."ticketId" = t."id"`);
  const counts = row!;
  return {
    open: Number(counts.open),
    unassigned: Number(counts.unassigned),
    bypassed: Number(counts.bypassed),
    handoff: Number(counts.handoff),
    approval: Number(counts.approval),
    specialist: Number(counts.specialist),
    stale: Number(counts.stale),
  };
}

export async function viewCounts(input: { userId: string; now?: Date; client?: Db; maxAgeMs?: number }): Promise<TViewCounts> {
  const client = input.client ?? defaultDb();
  const now = (input.now ?? new Date()).getTime();
  const maxAge = input.maxAgeMs ?? VIEW_COUNTS_MAX_AGE_MS;
  const all = remembered(
    { get: () => shared.get(client), set: (k) => shared.set(client, k), drop: (k) => shared.get(client) === k && shared.delete(client) },
    now,
    maxAge,
    () => readShared(client),
  );
  let people = mine.get(client);
  if (!people) mine.set(client, (people = new Map()));
  const byPerson = people;
  const own = remembered(
    {
      get: () => byPerson.get(input.userId),
      set: (k) => byPerson.set(input.userId, k),
      drop: (k) => byPerson.get(input.userId) === k && byPerson.delete(input.userId),
    },
    now,
    maxAge,
    () => client.ticket.count({ where: { assigneeId: input.userId, status: { not: "resolved" } } }),
  );
  const [counts, count] = await Promise.all([all.value, own.value]);
  // The older of the two readings is what the counts are as of.
  return { ...counts, mine: count, asOf: new Date(Math.min(all.at, own.at)) };
}
