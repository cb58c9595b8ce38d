// A child process for crash tests: starts a live run whose planner never answers, says so, and waits
// to be killed. Usage: tsx testing/run-then-hang.ts URL TICKET_ID LEASE_MS
import { runAgent } from "../lib/agent/run-agent";
import { openDb, useDb } from "../lib/db";

const [url, ticketId, leaseMs] = process.argv.slice(2) as [string, string, string];
const handle = openDb({ kind: "postgres", url, max: 2 });
useDb(handle);
const never = { id: "never", decide: () => new Promise<never>(() => {}) };
console.log("starting");
void runAgent({ ticketId, planner: never, leaseMs: Number(leaseMs), budgets: { maxWallMs: 600_000 }, client: handle.client });
setInterval(() => {}, 1 << 30);
