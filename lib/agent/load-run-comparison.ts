// Two runs of one ticket with their traces, for the page that compares them; by default the two
// newest. A run id that is not a run of this ticket answers null, like an unknown ticket: a page
// never shows another ticket's run under this one's address.
import type { Db } from "../db";
import { db as defaultDb } from "../db";
import { compareRuns } from "./compare-runs";

/** How many of the ticket's runs are offered to choose from, newest first. */
export const RUNS_OFFERED = 50;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function loadRunComparison(input: { ticketId: string; a?: string; b?: string; client?: Db }) {
  const client = input.client ?? defaultDb();
  const ticket = await client.ticket.findUnique({ where: { id: input.ticketId }, select: { id: true, number: true, subject: true } });
  if (!ticket) return null;
  const offered = await client.agentRun.findMany({
    where: { ticketId: ticket.id },
    orderBy: [{ startedAt: "desc" }, { id: "asc" }],
    take: RUNS_OFFERED,
    select: { id: true, startedAt: true, mode: true, planner: true, status: true, reason: true },
  });
  const chosen = [input.a, input.b];
  if (chosen.some((id) => id !== undefined && !UUID.test(id))) return null;
  // Older on the left: A is the second newest, B the newest.
  const a = input.a ?? offered[1]?.id;
  const b = input.b ?? offered[0]?.id;
  if (!a || !b) return { ticket, offered, comparison: null };
  const runs = await client.agentRun.findMany({
    where: { id: { in: [a, b] }, ticketId: ticket.id },
    include: { traceEvents: { orderBy: { step: "asc" } }, startedBy: { select: { name: true } } },
  });
  const runA = runs.find((r) => r.id === a);
  const runB = runs.find((r) => r.id === b);
  if (!runA || !runB) return null;
  return { ticket, offered, comparison: { a: runA, b: runB, ...compareRuns(runA.traceEvents, runB.traceEvents) } };
}

export type TRunComparisonPage = NonNullable<Awaited<ReturnType<typeof loadRunComparison>>>;
export type TComparedRun = NonNullable<TRunComparisonPage["comparison"]>["a"];
