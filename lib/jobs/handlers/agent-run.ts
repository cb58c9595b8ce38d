import { runBatchItem } from "../../agent/batches";
import { recordShadowDecisions } from "../../eval/shadow";
import { defaultPlannerChoice, plannerSetup } from "../../llm/choose-planner";
import type { AGENT_RUN_JOB } from "../definitions/agent-run";
import { doBatchItem } from "./batch-item";
import type { TJobInput } from "./job-input";

/** One ticket of a bulk run (the default planner) or of a shadow pass (its decisions recorded). */
export async function runBatchTicket(input: TJobInput<typeof AGENT_RUN_JOB>): Promise<unknown> {
  const { data, client } = input;
  const batch = await client.agentBatch.findUnique({ where: { id: data.batchId }, select: { kind: true, createdById: true } });
  if (!batch) return "skipped";
  return doBatchItem(input, async () => {
    if (batch.kind === "shadow") {
      return runBatchItem({ ...data, client, then: async (run, c) => void (await recordShadowDecisions(run, batch.createdById, c)) });
    }
    const setup = plannerSetup(await defaultPlannerChoice(client));
    return runBatchItem({ ...data, client, run: { planner: setup.planner, tools: setup.tools, model: setup.model } });
  });
}
