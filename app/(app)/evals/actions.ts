"use server";
// Starting an evaluation of the agent from /evals (lib/eval/agent-evaluation.ts checks the role again).
import { revalidatePath } from "next/cache";
import { authedAction } from "@/lib/auth/authed";
import { startAgentEvaluation, ZEvaluationOptions } from "@/lib/eval/agent-evaluation";

export const startAgentEvaluationAction = authedAction({ area: "evals", input: ZEvaluationOptions }, async ({ input, user }) => {
  const started = await startAgentEvaluation({ options: input, actor: user });
  revalidatePath("/evals");
  return started;
});
