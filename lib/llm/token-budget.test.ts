// The budget before a model call: the prompt counted with its margin, max_tokens capped to what is
// left, and a call that cannot fit refused before it is made.
import { countTokens } from "gpt-tokenizer";
import { beforeAll, describe, expect, it } from "vitest";
import { TokenBudgetRefusal } from "../agent/planner";
import { completionCap, COMPLETION_TOKENS, PROMPT_MARGIN, promptTokens } from "./token-budget";

const schema = { type: "object", properties: { reply: { type: "string" } } };
const messages = [
  { role: "system" as const, content: "You write a short, polite reply." },
  { role: "user" as const, content: "DRAFT_JSON: " + "a cracked screen ".repeat(100) },
];
const none = { promptTokens: 0, completionTokens: 0 };

describe("promptTokens", () => {
  it("counts the messages and the schema, and adds the margin for tokenizers it does not know", async () => {
    const bare = countTokens(messages[0]!.content) + countTokens(messages[1]!.content) + countTokens(JSON.stringify(schema));
    expect(await promptTokens(messages, schema)).toBeGreaterThanOrEqual(Math.ceil(bare * (1 + PROMPT_MARGIN)));
    expect(await promptTokens(messages, schema)).toBeLessThan(Math.ceil(bare * (1 + PROMPT_MARGIN)) + 100);
  });
});

describe("completionCap", () => {
  let prompt = 0;
  beforeAll(async () => {
    prompt = await promptTokens(messages, schema);
  });

  it("gives the answer's wanted length when there is room, and no budget means no cap but that", async () => {
    expect(await completionCap({ tokensLeft: 10_000, spent: none, messages, schema, kind: "draft" })).toBe(COMPLETION_TOKENS.draft.wanted);
    expect(await completionCap({ tokensLeft: undefined, spent: none, messages, schema, kind: "decision" })).toBe(
      COMPLETION_TOKENS.decision.wanted,
    );
  });

  it("caps max_tokens to what is left once the prompt and this turn's earlier calls are paid for", async () => {
    const spent = { promptTokens: 100, completionTokens: 20 };
    expect(await completionCap({ tokensLeft: prompt + 120 + 500, spent, messages, schema, kind: "draft" })).toBe(500);
  });

  it("refuses a call that cannot fit, before it is made, carrying what the turn spent", async () => {
    const spent = { promptTokens: 100, completionTokens: 20 };
    const tokensLeft = prompt + 120 + COMPLETION_TOKENS.draft.least - 1;
    let refusal: unknown;
    try {
      await completionCap({ tokensLeft, spent, messages, schema, kind: "draft" });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(TokenBudgetRefusal);
    expect(refusal).toMatchObject({
      spent,
      message: expect.stringMatching(/^the next model call \(draft\) needs about \d+ tokens and \d+ are left of the budget$/),
    });
    expect(await completionCap({ tokensLeft: tokensLeft + 1, spent, messages, schema, kind: "draft" })).toBe(COMPLETION_TOKENS.draft.least);
  });
});
