import { runBatchItem } from "../../agent/batches";
import type { TRunResult } from "../../agent/run-agent";
import type { Db } from "../../db";
import { recordShadowDecisions } from "../../eval/shadow";
import { defaultPlannerChoice, plannerSetup } from "../../llm/choose-planner";
import { LimiterWaits } from "../../llm/model-limiter";
import type { AGENT_RUN_JOB } from "../definitions/agent-run";
import { doBatchItem } from "./batch-item";
import type { TJobInput } from "./job-input";

/** One ticket of a bulk run (the default planner) or of a shadow pass (its decisions recorded). */
export async function runBatchTicket(input: TJobInput<typeof AGENT_RUN_JOB>): Promise<unknown> {
  const { data, client } = input;
  const batch = await client.agentBatch.findUnique({ where: { id: data.batchId }, select: { kind: true, createdById: true } });
  if (!batch) return "skipped";
  // What its model calls waited on the rate limit is kept with the item (the batch's progress shows it).
  const waits = new LimiterWaits();
  const limiterWaitMs = () => waits.ms;
  return doBatchItem(input, () =>
    waits.run(async () => {
      if (batch.kind === "shadow") {
        const then = async (run: TRunResult, c: Db) => void (await recordShadowDecisions(run, batch.createdById, c));
        return runBatchItem({ ...data, client, limiterWaitMs, then });
      }
      const setup = plannerSetup(await defaultPlannerChoice(client));
      return runBatchItem({ ...data, client, limiterWaitMs, run: { planner: setup.planner, tools: setup.tools, model: setup.model } });
    }),
  );
}
