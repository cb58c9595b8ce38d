// The daily series behind the Daily page and the alerts: one SQL fragment per series, each giving
// (day, value) for the UTC days in a range, run together in one statement. Timestamps are stored as
// UTC without a time zone, so the range is given as UTC timestamps, never a timestamptz the session's
// time zone would shift. A day without rows is 0 for a count and null for a share, a wait or a cost
// nobody priced: "nothing was decided" is not "0% agreed".
import { GROUNDING_REASONS, SERIES_DAYS, SERIES_KEYS, type TSeriesKey } from "../contracts/daily-series";
import { db as defaultDb, Prisma, type Db } from "../db";

const DAY_MS = 86_400_000;
const utcDay = (at: Date) => at.toISOString().slice(0, 10);
const utcStamp = (at: Date) => at.toISOString().slice(0, 23).replace("T", " ");

type TRange = { from: Prisma.Sql; to: Prisma.Sql };

/** Each series, as a statement giving `day` (YYYY-MM-DD) and `value` for the days in the range. */
const SERIES_SQL: Record<TSeriesKey, (r: TRange) => Prisma.Sql> = {
  ticketsIn: ({ from, to }) => Prisma.sql`
    SELECT to_char("createdAt", 'YYYY-MM-DD') AS day, count(*)::float8 AS value FROM "Ticket"
    WHERE "createdAt" >= ${from} AND "createdAt" < ${to} GROUP BY 1`,
  admitted: ({ from, to }) => Prisma.sql`
    SELECT to_char("createdAt", 'YYYY-MM-DD'), count(*)::float8 FROM "Ticket"
    WHERE admission = 'admitted' AND "createdAt" >= ${from} AND "createdAt" < ${to} GROUP BY 1`,
  bypassed: ({ from, to }) => Prisma.sql`
    SELECT to_char("createdAt", 'YYYY-MM-DD'), count(*)::float8 FROM "Ticket"
    WHERE admission = 'bypassed' AND "createdAt" >= ${from} AND "createdAt" < ${to} GROUP BY 1`,
  // Live runs only: simulated runs (shadow passes, previews) re-run tickets a person already has.
  handoffs: ({ from, to }) => Prisma.sql`
    SELECT to_char("startedAt", 'YYYY-MM-DD'), count(*)::float8 FROM "AgentRun"
    WHERE status = 'needs_human' AND mode = 'live' AND "startedAt" >= ${from} AND "startedAt" < ${to} GROUP BY 1`,
  groundingRefusals: ({ from, to }) => Prisma.sql`
    SELECT to_char("startedAt", 'YYYY-MM-DD'), count(*)::float8 FROM "AgentRun"
    WHERE mode = 'live' AND reason IN (${Prisma.join(GROUNDING_REASONS)}) AND "startedAt" >= ${from} AND "startedAt" < ${to} GROUP BY 1`,
  autoApprovals: ({ from, to }) => Prisma.sql`
    SELECT to_char("createdAt", 'YYYY-MM-DD'), count(*)::float8 FROM "ApprovalDecision"
    WHERE automatic AND "createdAt" >= ${from} AND "createdAt" < ${to} GROUP BY 1`,
  shadowAgreement: ({ from, to }) => Prisma.sql`
    SELECT to_char("createdAt", 'YYYY-MM-DD'), (100.0 * count(*) FILTER (WHERE agreed) / count(*))::float8 FROM "ShadowDecision"
    WHERE agreed IS NOT NULL AND "createdAt" >= ${from} AND "createdAt" < ${to} GROUP BY 1`,
  approvalWaitMedian: (r) => approvalWait(r, 0.5),
  approvalWaitP90: (r) => approvalWait(r, 0.9),
  refunds: ({ from, to }) => Prisma.sql`
    SELECT to_char("createdAt", 'YYYY-MM-DD'), count(*)::float8 FROM "LedgerEntry"
    WHERE kind = 'refund' AND state NOT IN ('failed', 'canceled') AND "createdAt" >= ${from} AND "createdAt" < ${to} GROUP BY 1`,
  refundedCents: ({ from, to }) => Prisma.sql`
    SELECT to_char("createdAt", 'YYYY-MM-DD'), sum("amountCents")::float8 FROM "LedgerEntry"
    WHERE kind = 'refund' AND state NOT IN ('failed', 'canceled') AND "createdAt" >= ${from} AND "createdAt" < ${to} GROUP BY 1`,
  // A run still running has no cost yet; a run that failed half way has the cost of what it used.
  costUsd: ({ from, to }) => Prisma.sql`
    SELECT day, sum(cost)::float8 FROM (
      SELECT to_char("startedAt", 'YYYY-MM-DD') AS day, "costUsd" AS cost FROM "AgentRun"
      WHERE status <> 'running' AND "costUsd" IS NOT NULL AND "startedAt" >= ${from} AND "startedAt" < ${to}
      UNION ALL
      SELECT to_char("createdAt", 'YYYY-MM-DD'), "costUsd" FROM "EvalRun"
      WHERE "costUsd" IS NOT NULL AND "createdAt" >= ${from} AND "createdAt" < ${to}) c GROUP BY 1`,
};

/** Minutes from a request to its first decision by a person (system approvals wait for nobody),
 * on the day of that decision. */
function approvalWait({ from, to }: TRange, share: 0.5 | 0.9) {
  return Prisma.sql`
    SELECT to_char(decided, 'YYYY-MM-DD'), percentile_cont(${share}::float8) WITHIN GROUP (ORDER BY minutes)::float8 FROM (
      SELECT min(d."createdAt") AS decided, extract(epoch FROM min(d."createdAt") - r."createdAt") / 60 AS minutes
      FROM "ApprovalRequest" r JOIN "ApprovalDecision" d ON d."approvalRequestId" = r.id AND NOT d.automatic
      GROUP BY r.id, r."createdAt") w
    WHERE decided >= ${from} AND decided < ${to} GROUP BY 1`;
}

/** Series whose empty day is "none happened" (0) rather than "nothing to measure" (null). */
const COUNTED: ReadonlySet<TSeriesKey> = new Set(["ticketsIn", "admitted", "bypassed", "handoffs", "groundingRefusals", "autoApprovals", "refunds", "refundedCents"]);

export interface TDailySeries {
  /** The UTC days, oldest first, today last. */
  days: string[];
  /** One value per day, in the order of `days`. */
  values: Record<TSeriesKey, (number | null)[]>;
}

/** The series asked for (all by default) over the `days` UTC days up to and including `now`'s. */
export async function readDailySeries(input: { days?: number; now?: Date; only?: readonly TSeriesKey[]; client?: Db } = {}): Promise<TDailySeries> {
  const client = input.client ?? defaultDb();
  const count = input.days ?? SERIES_DAYS;
  const keys = input.only ?? SERIES_KEYS;
  const first = Date.parse(`${utcDay(input.now ?? new Date())}T00:00:00.000Z`) - (count - 1) * DAY_MS;
  const range: TRange = { from: Prisma.sql`${utcStamp(new Date(first))}::timestamp`, to: Prisma.sql`${utcStamp(new Date(first + count * DAY_MS))}::timestamp` };
  const days = Array.from({ length: count }, (_, i) => utcDay(new Date(first + i * DAY_MS)));
  const rows = await client.$queryRaw<{ series: TSeriesKey; day: string; value: number | null }[]>(
    Prisma.join(
      keys.map((key) => Prisma.sql`SELECT ${key}::text AS series, s.* FROM (${SERIES_SQL[key](range)}) AS s(day, value)`),
      " UNION ALL ",
    ),
  );
  const index = new Map(days.map((d, i) => [d, i]));
  const values = Object.fromEntries(SERIES_KEYS.map((k) => [k, days.map(() => (COUNTED.has(k) ? 0 : null))])) as TDailySeries["values"];
  for (const row of rows) {
    const i = index.get(row.day);
    if (i !== undefined && row.value !== null) values[row.series][i] = Number(row.value);
  }
  return { days, values };
}
