// The model-backed draft_reply tool: same contract as the rule drafter's. Its bounded repair uses the
// draft checks to ask the model again; whatever it returns, the runtime checks it like any draft.
import { orderNumbers, orderTerms, type TToolSet } from "../agent/tools";
import { DRAFTER_PROMPT_VERSION, modelDraft } from "./model-planner";
import type { TLlmConfig } from "./provider";

export function modelTools(config: TLlmConfig): Partial<TToolSet> {
  return {
    async draft_reply(_args, ctx) {
      const { state } = ctx;
      if (state.order?.found !== true) throw new Error("unreachable: checked by the transition rules");
      const draft = await modelDraft({
        config,
        state,
        orderNumbers: orderNumbers(state.order.order),
        orderTerms: orderTerms(state.order.order),
        tokensLeft: ctx.tokensLeft,
        signal: ctx.signal,
      });
      ctx.reportUsage({ ...draft.usage, model: draft.model, promptVersion: DRAFTER_PROMPT_VERSION });
      return { text: draft.text, citations: draft.citations };
    },
  };
}
