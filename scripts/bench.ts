// npm run bench: the server time of the queue page's query and of a ticket page's queries, on a
// database seeded with `npm run db:seed -- --scale` (100,000 tickets, 1,000,000 trace events). It
// calls the same lib functions the pages call, against the configured database (embedded PGlite, or
// DATABASE_URL), and reports p50/p95 over --iterations runs of each scenario (after warm-up runs).
// Exits 1 if any scenario's p95 reaches the budget (300 ms), 2 if the scale data is missing.
//
// Then it grades 1,000 rule-planner episodes (scripts/bench-eval.ts) and reports the time taken.
//
//   npm run bench                      # 30 iterations each, 1,000 episodes
//   npm run bench -- --iterations 100 --episodes 200
//   npm run bench -- --skip-eval
import { parseArgs } from "node:util";
import { benchEval } from "./bench-eval";
import { runScript } from "./run-script";
import { db, dbKind } from "../lib/db";
import { decodeCursor, type TKeysetCursor } from "../lib/db/keyset";
import { listTickets } from "../lib/intake/list-tickets";
import { loadTicketDetail } from "../lib/intake/load-ticket-detail";
import { SCALE_TICKETS, scaleExternalId } from "../prisma/seed/scale";

const BUDGET_MS = 300;
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

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { iterations: { type: "string", default: "30" }, episodes: { type: "string", default: "1000" }, "skip-eval": { type: "boolean", default: false } } });
  const iterations = Number(values.iterations);
  if (!Number.isInteger(iterations) || iterations < 1) {
    console.error("--iterations must be a positive whole number");
    return 2;
  }
  const client = db();
  if (!(await client.ticket.findUnique({ where: { externalId: scaleExternalId(SCALE_TICKETS) }, select: { id: true } }))) {
    console.error("The scale data is missing: run `npm run db:seed -- --scale` first (against the same database).");
    return 2;
  }
  const counts = { tickets: await client.ticket.count(), runs: await client.agentRun.count(), traceEvents: await client.traceEvent.count() };
  console.log(`Bench on ${dbKind() === "postgres" ? "PostgreSQL" : "embedded PGlite"}: ${counts.tickets.toLocaleString("en-US")} tickets, ${counts.runs.toLocaleString("en-US")} runs, ${counts.traceEvents.toLocaleString("en-US")} trace events.`);
  console.log(`${iterations} iterations per scenario after ${WARMUP} warm-up runs; budget p95 < ${BUDGET_MS} ms.\n`);

  const page2 = decodeCursor((await listTickets({})).olderCursor!)!;
  const middle = await cursorAt(scaleExternalId(SCALE_TICKETS / 2));
  const deep = await cursorAt(scaleExternalId(100));
  const middleNewer = await cursorAt(scaleExternalId(SCALE_TICKETS / 2), "newer");
  // Ticket pages: needs_human tickets with two runs (16 trace events, proposals), spread over the table.
  const heavy = await client.ticket.findMany({
    where: { externalId: { in: Array.from({ length: 40 }, (_, n) => scaleExternalId(20 * Math.floor((n * (SCALE_TICKETS / 20 - 1)) / 40) + 10)) } },
    select: { id: true },
  });
  if (heavy.length === 0) throw new Error("no scale tickets with runs found");

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
    { name: "ticket page: loadTicketDetail (2 runs, 16 trace events)", run: (i) => loadTicketDetail({ ticketId: heavy[i % heavy.length]!.id }) },
  ];

  let failed = 0;
  const width = Math.max(...scenarios.map((s) => s.name.length));
  console.log(`${"scenario".padEnd(width)}   p50 ms   p95 ms   max ms`);
  for (const scenario of scenarios) {
    const { p50, p95, max } = await measure(scenario, iterations);
    const over = p95 >= BUDGET_MS;
    if (over) failed++;
    console.log(`${scenario.name.padEnd(width)} ${p50.toFixed(1).padStart(8)} ${p95.toFixed(1).padStart(8)} ${max.toFixed(1).padStart(8)}${over ? "   OVER BUDGET" : ""}`);
  }
  console.log(failed ? `\n${failed} scenario(s) at or over ${BUDGET_MS} ms at p95.` : `\nEvery scenario's p95 is under ${BUDGET_MS} ms.`);

  if (!values["skip-eval"]) {
    console.log(`\nGrading ${values.episodes} rule-planner episodes through the real runtime on a fresh in-memory database…`);
    const graded = await benchEval(Number(values.episodes));
    console.log(`Graded ${graded.episodes} episodes in ${graded.seconds.toFixed(1)} s (${graded.perEpisodeMs.toFixed(1)} ms each); ${graded.passed} passed.`);
    if (graded.passed !== graded.episodes) failed++;
  }
  return failed ? 1 : 0;
}

runScript(main);
