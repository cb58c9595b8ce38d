// What the agent cost over the last days, for /evals: live runs, shadow passes (the runs made in
// simulate mode: shadow batches and simulations, which change no ticket) and evaluations, each apart.
// Per run, per ticket the runs worked on, per resolved ticket (a ticket resolved now, whatever run
// or person resolved it) and per day. A run's cost is the one stored when it ended (run-cost.ts); a
// run whose model had no price is counted among the runs and named as unpriced, never as 0.
import { db as defaultDb, Prisma, type Db } from "../db";

export const COST_WINDOW_DAYS = 30;
export const COST_DAYS_SHOWN = 14;

export type TCostKind = "live" | "shadow" | "evaluation";

export interface TCostLine {
  kind: TCostKind;
  runs: number;
  unpriced: number;
  totalUsd: number;
  /** Tickets the runs worked on (none for evaluations: their tickets are the episodes'). */
  tickets: number | null;
  resolvedTickets: number | null;
  perRunUsd: number | null;
  perTicketUsd: number | null;
  perResolvedTicketUsd: number | null;
}

export interface TCostDay {
  day: string;
  live: number;
  shadow: number;
  evaluation: number;
}

export interface TCostReport {
  since: Date;
  lines: TCostLine[];
  days: TCostDay[];
}

type TLineRow = { kind: TCostKind; runs: number; unpriced: number; total: number; tickets: number | null; resolved: number | null };

const per = (total: number, n: number | null) => (n ? total / n : null);

function line(row: TLineRow | undefined, kind: TCostKind): TCostLine {
  const r = row ?? { kind, runs: 0, unpriced: 0, total: 0, tickets: kind === "evaluation" ? null : 0, resolved: kind === "evaluation" ? null : 0 };
  return {
    kind,
    runs: r.runs,
    unpriced: r.unpriced,
    totalUsd: r.total,
    tickets: r.tickets,
    resolvedTickets: r.resolved,
    perRunUsd: per(r.total, r.runs - r.unpriced),
    perTicketUsd: per(r.total, r.tickets),
    perResolvedTicketUsd: per(r.total, r.resolved),
  };
}

export async function costReport(input: { now?: Date; client?: Db } = {}): Promise<TCostReport> {
  const client = input.client ?? defaultDb();
  const now = input.now ?? new Date();
  const since = new Date(now.getTime() - COST_WINDOW_DAYS * 86_400_000);
  const daysSince = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (COST_DAYS_SHOWN - 1) * 86_400_000);
  const [rows, days] = await Promise.all([
    client.$queryRaw<TLineRow[]>(Prisma.sql`
      SELECT CASE WHEN r.mode = 'live' THEN 'live' ELSE 'shadow' END AS kind, count(*)::int AS runs,
        count(*) FILTER (WHERE r."costUsd" IS NULL)::int AS unpriced, coalesce(sum(r."costUsd"), 0)::float8 AS total,
        count(DISTINCT r."ticketId")::int AS tickets, count(DISTINCT r."ticketId") FILTER (WHERE t.status = 'resolved')::int AS resolved
      FROM "AgentRun" r JOIN "Ticket" t ON t.id = r."ticketId"
      WHERE r."startedAt" >= ${since} AND r.status <> 'running'
      GROUP BY 1
      UNION ALL
      SELECT 'evaluation', count(*)::int, count(*) FILTER (WHERE e."costUsd" IS NULL)::int, coalesce(sum(e."costUsd"), 0)::float8, NULL, NULL
      FROM "EvalRun" e WHERE e."createdAt" >= ${since}`),
    client.$queryRaw<{ day: string; kind: TCostKind; total: number }[]>(Prisma.sql`
      SELECT to_char(r."startedAt", 'YYYY-MM-DD') AS day, CASE WHEN r.mode = 'live' THEN 'live' ELSE 'shadow' END AS kind, coalesce(sum(r."costUsd"), 0)::float8 AS total
      FROM "AgentRun" r WHERE r."startedAt" >= ${daysSince} AND r.status <> 'running' GROUP BY 1, 2
      UNION ALL
      SELECT to_char(e."createdAt", 'YYYY-MM-DD'), 'evaluation', coalesce(sum(e."costUsd"), 0)::float8
      FROM "EvalRun" e WHERE e."createdAt" >= ${daysSince} GROUP BY 1`),
  ]);
  const byKind = new Map(rows.map((r) => [r.kind, r]));
  const dayList: TCostDay[] = Array.from({ length: COST_DAYS_SHOWN }, (_, i) => ({
    day: new Date(daysSince.getTime() + i * 86_400_000).toISOString().slice(0, 10),
    live: 0,
    shadow: 0,
    evaluation: 0,
  }));
  for (const d of days) {
    const entry = dayList.find((x) => x.day === d.day);
    if (entry) entry[d.kind] += d.total;
  }
  return { since, lines: (["live", "shadow", "evaluation"] as const).map((k) => line(byKind.get(k), k)), days: dayList };
}
