// The page-query half of the bench: the server time of the queue page's query and of a ticket page's
// queries on the configured database seeded with `npm run db:seed -- --scale` (100,000 tickets,
// 1,000,000 trace events). It calls the same lib functions the pages call, reads only, and reports
// p50/p95 over `iterations` runs of each scenario after warm-up runs; the budget is p95 < 300 ms.
import { db, dbKind } from "../../lib/db";
import { decodeCursor, type TKeysetCursor } from "../../lib/db/keyset";
import { listTickets } from "../../lib/queue/list-tickets";
import { loadTicketDetail } from "../../lib/queue/load-ticket-detail";
import { listView } from "../../lib/queue/list-view";
import { QUEUE_VIEWS } from "../../lib/queue/queue-views";
import { searchTickets } from "../../lib/queue/search-tickets";
import { viewCounts } from "../../lib/queue/view-counts";
import { SCALE_TICKETS, scaleExternalId } from "../../prisma/seed/scale";
import type { Report } from "./report";

export const BUDGET_MS = 300;
const WARMUP = 3;

interface TScenario {
  name: string;
  /** One measured call; `i` lets a scenario vary its input between iterations. */
  run: (i: number) => Promise<unknown>;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

async function measure(scenario: TScenario, iterations: number) {
  for (let i = 0; i < WARMUP; i++) await scenario.run(i);
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const started = performance.now();
    await scenario.run(i);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), max: times.at(-1)! };
}

async function cursorAt(externalId: string, direction: TKeysetCursor["direction"] = "older"): Promise<TKeysetCursor> {
  const t = await db().ticket.findUniqueOrThrow({ where: { externalId }, select: { id: true, createdAt: true } });
  return { direction, createdAt: t.createdAt, id: t.id };
}

/** False when the scale data is missing (nothing measured). */
export async function benchPages(report: Report, iterations: number): Promise<boolean> {
  const client = db();
  if (!(await client.ticket.findUnique({ where: { externalId: scaleExternalId(SCALE_TICKETS) }, select: { id: true } }))) {
    report.skipped(
      "page queries at 100k tickets",
      "the scale data is missing from the configured database: run `npm run db:seed -- --scale` first",
    );
    return false;
  }
  const counts = {
    tickets: await client.ticket.count(),
    runs: await client.agentRun.count(),
    traceEvents: await client.traceEvent.count(),
  };
  console.log(
    `Page queries on the configured ${dbKind() === "postgres" ? "PostgreSQL database" : "embedded database"}: ${counts.tickets.toLocaleString("en-US")} tickets, ${counts.runs.toLocaleString("en-US")} runs, ${counts.traceEvents.toLocaleString("en-US")} trace events.`,
  );
  console.log(`${iterations} iterations per scenario after ${WARMUP} warm-up runs; budget p95 < ${BUDGET_MS} ms.\n`);

  const page2 = decodeCursor((await listTickets({})).olderCursor!)!;
  const middle = await cursorAt(scaleExternalId(SCALE_TICKETS / 2));
  const deep = await cursorAt(scaleExternalId(100));
  const middleNewer = await cursorAt(scaleExternalId(SCALE_TICKETS / 2), "newer");
  // Ticket pages: needs_human tickets with two runs (16 trace events, proposals), spread over the table.
  const heavy = await client.ticket.findMany({
    where: {
      externalId: { in: Array.from({ length: 40 }, (_, n) => scaleExternalId(20 * Math.floor((n * (SCALE_TICKETS / 20 - 1)) / 40) + 10)) },
    },
    select: { id: true },
  });
  if (heavy.length === 0) throw new Error("no scale tickets with runs found");

  const reviewerId =
    (await client.user.findFirst({ where: { role: "REVIEWER" }, select: { id: true } }))?.id ?? "00000000-0000-4000-8000-000000000000";

  const scenarios: TScenario[] = [
    { name: "queue: default filter, first page", run: () => listTickets({}) },
    { name: "queue: default filter, second page", run: () => listTickets({ cursor: page2 }) },
    { name: "queue: default filter, page halfway down", run: () => listTickets({ cursor: middle }) },
    { name: "queue: default filter, page near the oldest", run: () => listTickets({ cursor: deep }) },
    { name: "queue: default filter, newer from halfway", run: () => listTickets({ cursor: middleNewer }) },
    { name: "queue: every unresolved, first page", run: () => listTickets({ status: "all" }) },
    { name: "queue: every unresolved, page halfway down", run: () => listTickets({ status: "all", cursor: middle }) },
    { name: "queue: status needs_human, first page", run: () => listTickets({ status: "needs_human" }) },
    { name: "queue: reason tool_timeout, first page", run: () => listTickets({ reason: "tool_timeout" }) },
    { name: "queue: reason tool_timeout, page halfway down", run: () => listTickets({ reason: "tool_timeout", cursor: middle }) },
    { name: "search: an order id", run: (i) => searchTickets({ q: `ORD-S${String(1 + ((i * 37) % 1000)).padStart(5, "0")}` }) },
    { name: "search: an email fragment", run: (i) => searchTickets({ q: `customer-${String(i % 100).padStart(3, "0")}` }) },
    { name: "search: a word in every body", run: () => searchTickets({ q: "described" }) },
    { name: "search: two words, one rare", run: (i) => searchTickets({ q: `scale ${1000 + i * 997}` }) },
    { name: "search: a ticket number", run: (i) => searchTickets({ q: `#${1 + ((i * 3331) % SCALE_TICKETS)}` }) },
    ...QUEUE_VIEWS.map((view) => ({ name: `view: ${view}, first page`, run: () => listView({ view, userId: reviewerId }) })),
    { name: "view counts, read afresh (no cache)", run: () => viewCounts({ userId: reviewerId, maxAgeMs: 0 }) },
    {
      name: "ticket page: loadTicketDetail (2 runs, 16 trace events)",
      run: (i) => loadTicketDetail({ ticketId: heavy[i % heavy.length]!.id }),
    },
  ];

  let worst = { name: "", p95: 0 };
  const width = Math.max(...scenarios.map((s) => s.name.length));
  console.log(`${"scenario".padEnd(width)}   p50 ms   p95 ms   max ms`);
  for (const scenario of scenarios) {
    const { p50, p95, max } = await measure(scenario, iterations);
    if (p95 > worst.p95) worst = { name: scenario.name, p95 };
    console.log(
      `${scenario.name.padEnd(width)} ${p50.toFixed(1).padStart(8)} ${p95.toFixed(1).padStart(8)} ${max.toFixed(1).padStart(8)}${p95 >= BUDGET_MS ? "   OVER BUDGET" : ""}`,
    );
  }
  report.limit(`page queries, worst p95 of ${scenarios.length} (${worst.name.split(":")[0]})`, worst.p95, "ms", BUDGET_MS);
  return true;
}
