// The token budget, enforced before each model call rather than after it: the prompt is counted, the
// call's max_tokens is capped to what is left once the prompt is paid for, and a call that cannot fit
// is not made – the run hands over token_budget_exceeded having spent no more than its budget. (Checked
// only after the call, a run with a long ticket spent about 11,500 tokens of a 6,000-token budget.)
//
// The count is gpt-tokenizer's o200k_base, the encoding of OpenAI's current models. For any other model
// behind an OpenAI-compatible endpoint (Llama, Qwen, Mistral…) it is an estimate: their tokenizers split
// text differently, typically within a fifth on English and further apart on other languages. Hence
// the margin (PROMPT_MARGIN, and a fixed overhead per message for the chat template's tokens). The
// usage the endpoint reports is still what the run counts (provider.ts); should a server count far
// more than this estimate, the loop's check after the call still stops the run.
import { TokenBudgetRefusal } from "../agent/planner";
import type { TChatMessage } from "./provider";
import { tokenizer } from "./tokenizer";

/** Share added to the counted prompt: other models' tokenizers count the same text differently. */
export const PROMPT_MARGIN = 0.25;
/** Tokens a chat template adds per message (role, separators), and once per request. */
const PER_MESSAGE = 8;
const PER_REQUEST = 16;

/** The prompt of one request as the budget counts it: the messages and the JSON Schema the server is
 * sent as response_format (servers put it in the prompt), with the margin. */
export async function promptTokens(messages: readonly TChatMessage[], schema: Record<string, unknown>): Promise<number> {
  const { countTokens } = await tokenizer();
  const counted = messages.reduce((n, m) => n + countTokens(m.content) + PER_MESSAGE, countTokens(JSON.stringify(schema)) + PER_REQUEST);
  return Math.ceil(counted * (1 + PROMPT_MARGIN));
}

/** How long an answer of each kind may be: `wanted` when there is room, never under `least` (an answer
 * cut shorter is not valid JSON, and a retry costs more than handing over). */
export const COMPLETION_TOKENS = {
  decision: { wanted: 400, least: 120 },
  draft: { wanted: 1_500, least: 300 },
} as const;

export type TSpent = { promptTokens: number; completionTokens: number };

/**
 * The max_tokens for the next call, or a refusal to make it. `tokensLeft` is what the run has left
 * before this planner's or tool's turn (undefined: no budget given, as outside a run); `spent` what
 * this turn has used so far, carried by the refusal so that the run counts it.
 */
export async function completionCap(input: {
  tokensLeft: number | undefined;
  spent: TSpent;
  messages: readonly TChatMessage[];
  schema: Record<string, unknown>;
  kind: keyof typeof COMPLETION_TOKENS;
}): Promise<number> {
  const { wanted, least } = COMPLETION_TOKENS[input.kind];
  if (input.tokensLeft === undefined) return wanted;
  const left = input.tokensLeft - input.spent.promptTokens - input.spent.completionTokens;
  const prompt = await promptTokens(input.messages, input.schema);
  const room = left - prompt;
  if (room < least)
    throw new TokenBudgetRefusal(
      `the next model call (${input.kind}) needs about ${prompt + least} tokens and ${Math.max(0, left)} are left of the budget`,
      input.spent,
    );
  return Math.min(wanted, room);
}
