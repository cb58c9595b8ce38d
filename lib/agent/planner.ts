// A planner proposes exactly one action per step from the run's state. It holds no authority: the
// runtime validates, gates and executes. Planners are swappable so tests can plug in hostile ones.
import type { TAgentState } from "./state";

export interface TPlannerOutput {
  /** Whatever the planner produced: validated by the runtime, never trusted. */
  decision: unknown;
  /** Measured usage, as reported by the model's response (zero for the rule planner). */
  usage?: {
    promptTokens: number;
    completionTokens: number;
    /** Of the prompt tokens, those served from the provider's cache. */ cachedTokens?: number;
  };
  model?: string;
  promptVersion?: string;
}

/** What the run has left for a planner's turn: a planner that calls a model keeps within it. */
export interface TPlannerBudget {
  tokensLeft: number;
}

export interface TPlanner {
  /** Recorded on the run: "rule", "model", "scripted". */
  readonly id: string;
  decide(state: TAgentState, signal: AbortSignal, budget?: TPlannerBudget): Promise<TPlannerOutput>;
}

/**
 * A model call not made because it could not fit in the tokens the run has left (lib/llm/token-budget.ts).
 * Thrown before the call by a planner or a tool; it carries what that turn had already spent, which
 * the run counts, and the run hands over token_budget_exceeded.
 */
export class TokenBudgetRefusal extends Error {
  constructor(
    message: string,
    readonly spent: { promptTokens: number; completionTokens: number },
  ) {
    super(message);
    this.name = "TokenBudgetRefusal";
  }
}

/** Replays a fixed list of decisions (adversarial tests, eval episodes). Past the end it hands off. */
export function scriptedPlanner(decisions: readonly (unknown | TPlannerOutput)[], options: { wrapped?: boolean } = {}): TPlanner {
  let i = 0;
  return {
    id: "scripted",
    async decide() {
      const next = i < decisions.length ? decisions[i++] : { action: "request_human_approval", args: { reason: "script ended" } };
      return options.wrapped ? (next as TPlannerOutput) : { decision: next };
    },
  };
}
