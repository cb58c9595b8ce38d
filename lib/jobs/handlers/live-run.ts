import { refusalText } from "../../agent/live-runs";
import { runAgent } from "../../agent/run-agent";
import { isAppError } from "../../contracts/app-error";
import { defaultPlannerChoice, plannerSetup } from "../../llm/choose-planner";
import type { LIVE_RUN_JOB } from "../definitions/live-run";
import type { TJobInput } from "./job-input";

/**
 * One run a person asked for, its steps written as they come (lib/agent/live-runs.ts). A refusal at
 * its start (planner_unavailable, a ticket another run took meanwhile) fails the job with the
 * refusal's words, which the page shows; the definition retries nothing.
 */
export async function runLiveTicket(input: TJobInput<typeof LIVE_RUN_JOB>): Promise<unknown> {
  try {
    return await runAsked(input);
  } catch (error) {
    if (isAppError(error)) throw new Error(refusalText(error));
    throw error;
  }
}

async function runAsked({ data, client }: TJobInput<typeof LIVE_RUN_JOB>): Promise<string> {
  const setup = plannerSetup(data.planner === "default" ? await defaultPlannerChoice(client) : data.planner);
  const run = await runAgent({
    runId: data.runId,
    ticketId: data.ticketId,
    mode: data.mode,
    startedBy: data.startedBy,
    planner: setup.planner,
    tools: setup.tools,
    model: setup.model,
    client,
    stepsAsTheyCome: true,
  });
  return run.status;
}
