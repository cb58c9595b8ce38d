import { runAgentEvaluation } from "../../eval/agent-evaluation";
import type { EVALUATE_AGENT_JOB } from "../definitions/evaluate-agent";
import type { TJobInput } from "./job-input";

/** An evaluation a lead started: graded by `npm run eval`'s script in a process of its own, its receipt stored here. */
export async function evaluateAgentJob({ data, client, lastAttempt }: TJobInput<typeof EVALUATE_AGENT_JOB>): Promise<unknown> {
  return runAgentEvaluation({ client, requestId: data.requestId, lastAttempt });
}
