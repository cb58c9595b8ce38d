// Which planner a run uses: the rule planner (the default, no network) or the model planner over the
// configured OpenAI-compatible endpoint, with its drafter. Both are held to the same runtime. It sits
// here, above the agent, because it puts the two together: the agent never imports the model side.
import { AppError } from "../contracts/app-error";
import { db as defaultDb, type Db } from "../db";
import { loadPolicySettings } from "../policy/settings";
import { llmAvailability, type TLlmConfig } from "./provider";
import { modelPlanner } from "./model-planner";
import { modelTools } from "./model-tools";
import type { TPlanner } from "../agent/planner";
import { rulePlanner } from "../agent/rule-planner";
import type { TToolSet } from "../agent/tools";

export type TPlannerChoice = "rule" | "model";

export interface TPlannerSetup {
  planner: TPlanner;
  tools: Partial<TToolSet>;
  model: string | null;
}

export function plannerSetup(choice: TPlannerChoice, config?: TLlmConfig): TPlannerSetup {
  if (choice === "rule") return { planner: rulePlanner, tools: {}, model: null };
  const resolved =
    config ??
    (() => {
      const availability = llmAvailability();
      if (!availability.available) throw new AppError("planner_unavailable", `The model planner is unavailable. ${availability.reason}`);
      return availability.config;
    })();
  return { planner: modelPlanner(resolved), tools: modelTools(resolved), model: resolved.model };
}

/** The planner a run gets when nobody chose one: the default in settings. */
export async function defaultPlannerChoice(client: Db = defaultDb()): Promise<TPlannerChoice> {
  return (await loadPolicySettings(client))["agent.defaultPlanner"];
}
