"use server";
// Starting an evaluation of the agent from /evals (lib/eval/agent-evaluation.ts checks the role again).
import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/auth/authed";
import { startAgentEvaluation, ZEvaluationOptions } from "@/lib/eval/agent-evaluation";
import { updatePolicySettings } from "@/lib/policy/update-settings";
import { ZSeriesThresholdsForm } from "./daily/threshold-fields";

export const startAgentEvaluationAction = authedAction({ area: "evals", input: ZEvaluationOptions }, async ({ input, user }) => {
  const started = await startAgentEvaluation({ options: input, actor: user });
  revalidatePath("/evals");
  return started;
});

/** The leads' thresholds on the daily series (a setting; updatePolicySettings checks the role again). */
export const setSeriesThresholdsAction = authedAction({ area: "evals", input: ZSeriesThresholdsForm }, async ({ input, user }) => {
  const result = await updatePolicySettings({ changes: { "watch.thresholds": input }, actor: user });
  revalidatePath("/evals/daily");
  return { thresholds: Object.keys(input).length, changed: result.changed.length > 0 };
});
