// npm run agent -- --ticket <number | id | external id> [--simulate] [--planner rule|model]
// Runs the agent on one ticket up to its approval stop, printing each step as it is recorded (and
// writing it, so the ticket page follows the run too), then the result.
import { parseArgs } from "node:util";
import { runScript } from "./run-script";
import { db } from "../lib/db";
import { findTicket } from "../lib/tickets/find-ticket";
import { formatRun, formatStep } from "../lib/agent/format-run";
import { runAgent } from "../lib/agent/run-agent";
import { defaultPlannerChoice, plannerSetup, type TPlannerChoice } from "../lib/llm/choose-planner";
import { isAppError } from "../lib/contracts/app-error";

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      ticket: { type: "string" },
      simulate: { type: "boolean", default: false },
      json: { type: "boolean", default: false },
      planner: { type: "string" },
    },
  });
  if (values.planner !== undefined && values.planner !== "rule" && values.planner !== "model") {
    console.error("--planner must be rule or model.");
    return 2;
  }
  if (!values.ticket) {
    console.error("Usage: npm run agent -- --ticket <number | id | external id> [--simulate] [--planner rule|model] [--json]");
    return 2;
  }
  const ticket = await findTicket(values.ticket, db());
  if (!ticket) {
    console.error(`No ticket ${values.ticket}.`);
    return 2;
  }
  console.log(`Ticket #${ticket.number}: ${ticket.subject}`);
  let setup;
  try {
    setup = plannerSetup((values.planner as TPlannerChoice | undefined) ?? (await defaultPlannerChoice(db())));
  } catch (error) {
    if (isAppError(error, "planner_unavailable")) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }
  if (!values.json) console.log("Trace, step by step:");
  const run = await runAgent({
    ticketId: ticket.id,
    mode: values.simulate ? "simulate" : "live",
    planner: setup.planner,
    tools: setup.tools,
    model: setup.model,
    stepsAsTheyCome: true,
    onStep: values.json ? undefined : (step) => console.log(formatStep(step)),
  });
  console.log(values.json ? JSON.stringify(run, null, 2) : `\n${formatRun(run, { trace: false })}`);
  return 0;
}

runScript(main);
