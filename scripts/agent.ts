// npm run agent -- --ticket <number | id | external id> [--simulate]
// Runs the agent on one ticket up to its approval stop and prints the result and its trace.
import { parseArgs } from "node:util";
import { closeDb, db } from "../lib/db";
import { describeEnvError } from "../lib/env";
import { findTicket } from "../lib/intake/find-ticket";
import { formatRun } from "../lib/agent/format-run";
import { runAgent } from "../lib/agent/run-agent";

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { ticket: { type: "string" }, simulate: { type: "boolean", default: false }, json: { type: "boolean", default: false } } });
  if (!values.ticket) {
    console.error("Usage: npm run agent -- --ticket <number | id | external id> [--simulate] [--json]");
    return 2;
  }
  const ticket = await findTicket(db(), values.ticket);
  if (!ticket) {
    console.error(`No ticket ${values.ticket}.`);
    return 2;
  }
  console.log(`Ticket #${ticket.number}: ${ticket.subject}`);
  const run = await runAgent({ ticketId: ticket.id, mode: values.simulate ? "simulate" : "live" });
  console.log(values.json ? JSON.stringify(run, null, 2) : formatRun(run));
  return 0;
}

main()
  .then(async (code) => {
    await closeDb();
    process.exit(code);
  })
  .catch(async (error) => {
    console.error(describeEnvError(error) ?? error);
    await closeDb().catch(() => {});
    process.exit(1);
  });
