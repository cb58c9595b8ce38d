// What an agent run cost, in US dollars: each step's tokens × the prices configured for the model
// that step called (MODEL_PRICES, per million tokens). Steps that called no model (the rule planner,
// a tool) cost nothing, so a rule-planner run costs 0. A step of a model with no configured price
// makes the run's cost unknown (null) rather than a figure too low. Counted from every step the run
// took, so a run that failed half way is charged for the calls it made.
import { env } from "../env";
import type { TTraceStep } from "./run-journal";

export interface TModelPrice {
  /** US dollars per million prompt tokens. */
  input: number;
  /** US dollars per million completion tokens. */
  output: number;
  /** US dollars per million prompt tokens served from the provider's cache (input's price when unset). */
  cachedInput?: number;
}

export type TModelPrices = Readonly<Record<string, TModelPrice>>;

/** The configured prices (MODEL_PRICES), or none. */
export function modelPrices(): TModelPrices {
  return env().MODEL_PRICES ?? {};
}

type TCostedStep = Pick<TTraceStep, "promptTokens" | "completionTokens" | "cachedTokens" | "model">;

/** One step's cost, in dollars (unrounded): 0 with no model or no tokens; null for a model with no price. */
export function stepCost(step: TCostedStep, prices: TModelPrices): number | null {
  const cached = Math.min(step.cachedTokens ?? 0, step.promptTokens);
  if (step.promptTokens + step.completionTokens === 0) return 0;
  if (!step.model) return 0;
  const price = prices[step.model];
  if (!price) return null;
  const fresh = step.promptTokens - cached;
  return (fresh * price.input + cached * (price.cachedInput ?? price.input) + step.completionTokens * price.output) / 1_000_000;
}

/** A run's cost in dollars, rounded to the micro-dollar the column keeps; null when a step's model has no price. */
export function runCost(steps: readonly TCostedStep[], prices: TModelPrices = modelPrices()): number | null {
  let total = 0;
  for (const step of steps) {
    const cost = stepCost(step, prices);
    if (cost === null) return null;
    total += cost;
  }
  return Math.round(total * 1_000_000) / 1_000_000;
}
