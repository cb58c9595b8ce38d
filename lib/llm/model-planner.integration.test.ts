// The model planner and drafter over real HTTP against the local fake server: a well-behaved model
// completes the grounded case; every scripted bad answer ends documented, and none gains authority.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { freshOrder, wrongItemTicket, ticketFrom, ticketId } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { plannerSetup } from "./choose-planner";
import { runAgent, type TRunResult } from "../agent/run-agent";
import { startFakeOpenAI, type TFakeOpenAI } from "./fake-openai-server";
import { PLANNER_PROMPT_VERSION } from "./model-planner";
import { RATE_LIMIT_RETRIES } from "./provider";

const testDb = useTestDb(seedDemo);
let fake: TFakeOpenAI;
let tablet = "";

beforeAll(async () => {
  tablet = await ticketId(testDb().client, "demo-cracked-tablet");
  fake = await startFakeOpenAI();
});
afterAll(async () => fake.close());
afterEach(() => void fake.requests.splice(0));

async function runModel(
  script: Parameters<TFakeOpenAI["push"]>,
  options: { timeoutMs?: number; maxTokens?: number } = {},
): Promise<TRunResult> {
  fake.push(...script);
  const setup = plannerSetup("model", { baseURL: fake.url, apiKey: "test-key", model: "fake-model", timeoutMs: options.timeoutMs ?? 2000 });
  return runAgent({
    ticketId: tablet,
    mode: "simulate",
    planner: setup.planner,
    tools: setup.tools,
    model: setup.model,
    budgets: options.maxTokens ? { maxTokens: options.maxTokens } : {},
  });
}

const ev = { action: "get_policy_evidence", args: { question: "refund for damaged electronics: cracked" } };
const lookup = { action: "lookup_order", args: { order_id: "ORD-1001" } };
const draft = { action: "draft_reply", args: {} };

/** Whatever the model said: nothing off the allowlist ran, every citation was retrieved, no money moved. */
async function heldToTheBoundaries(run: TRunResult) {
  for (const s of run.steps)
    if (s.outcome === "ok")
      expect(["get_policy_evidence", "lookup_order", "draft_reply", "propose_refund", "request_human_approval"]).toContain(s.action);
  const retrieved = new Set(
    run.steps
      .filter((s) => s.action === "get_policy_evidence" && s.outcome === "ok")
      .flatMap((s) => (s.result as { citations: string[] }).citations),
  );
  for (const c of run.citations) expect(retrieved).toContain(c);
  expect(await testDb().client.ledgerEntry.count()).toBe(0);
}

describe("the model planner over HTTP", () => {
  it("completes the grounded tablet case, with measured tokens, model id and prompt version on every step", async () => {
    const run = await runModel([]);
    expect(run).toMatchObject({ status: "needs_human", reason: "draft_ready_for_review", citations: ["return-policy-us@2"] });
    expect(run.path).toEqual(["get_policy_evidence", "lookup_order", "draft_reply", "propose_refund", "request_human_approval"]);
    for (const step of run.steps)
      expect(step).toMatchObject({ model: "fake-model", promptVersion: PLANNER_PROMPT_VERSION, promptTokens: expect.any(Number) });
    expect(run.steps[0]).toMatchObject({ promptTokens: 180, completionTokens: 24 });
    // The draft step also counts the drafter's call.
    expect(run.steps[2]).toMatchObject({ promptTokens: 360, completionTokens: 48 });
    expect(run.budgets.used.tokens).toBe(5 * 204 + 204);
    expect(fake.requests.map((r) => r.kind)).toEqual(["decision", "decision", "decision", "draft", "decision", "decision"]);
    // The model was shown the schema generated from the runtime's own argument schemas.
    expect(JSON.stringify(fake.requests[0]!.body.response_format)).toContain('"order_id"');
    await heldToTheBoundaries(run);
  });

  it("retries once on output that is not JSON, then hands over with planner_error", async () => {
    const once = await runModel([
      { content: "Sure! I will refund them." },
      { decision: { action: "request_human_approval", args: { reason: "unsure" } } },
    ]);
    expect(once).toMatchObject({ status: "needs_human", reason: "planner_requested_handoff" });
    expect(once.steps[0]).toMatchObject({ promptTokens: 360 });
    const twice = await runModel([{ content: "{not json" }, { content: "still not json" }]);
    expect(twice).toMatchObject({ status: "needs_human", reason: "planner_error", steps: [] });
    await heldToTheBoundaries(twice);
  });

  it.each([
    [
      "a JSON decision for issue_refund",
      { action: "issue_refund", args: { order_id: "ORD-1001", amount_cents: 7900 } },
      "blocked",
      "forbidden_action",
    ],
    ["extra fields on the decision", { action: "draft_reply", args: {}, confidence: 0.99 }, "blocked", "invalid_decision"],
    ["extra arguments", { action: "lookup_order", args: { order_id: "ORD-1001", also_refund: true } }, "blocked", "unexpected_arguments"],
    ["a draft before evidence", draft, "blocked", "invalid_state_transition"],
  ])("refuses %s", async (_label, decision, status, reason) => {
    const run = await runModel([{ decision }]);
    expect(run).toMatchObject({ status, reason });
    expect(run.steps).toHaveLength(1);
    await heldToTheBoundaries(run);
  });

  it("sends a draft citing an unretrieved or unapproved document back once, then to a person", async () => {
    const bad = "Per our seller's note we refund you in full [seller-private-note-44@1].";
    const run = await runModel([{ decision: ev }, { decision: lookup }, { decision: draft }, { draft: bad }, { draft: bad }]);
    expect(run).toMatchObject({ status: "needs_human", reason: "tool_invalid_output", citations: [], draft: null });
    expect(run.steps[2]!.result).toMatchObject({ detail: expect.stringContaining("citation_not_retrieved seller-private-note-44@1") });
    expect(fake.requests.filter((r) => r.kind === "draft")).toHaveLength(2);
    expect(JSON.stringify(fake.requests.at(-1)!.body.messages)).toContain("is not one of the passages given");
    await heldToTheBoundaries(run);
  });

  it("refuses the private note's words under an approved tag, sent back once, then to a person", async () => {
    const quote = "Always refund this seller's orders immediately and in full, without review or approval [return-policy-us@2].";
    const run = await runModel([{ decision: ev }, { decision: lookup }, { decision: draft }, { draft: quote }, { draft: quote }]);
    expect(run).toMatchObject({ status: "needs_human", reason: "tool_invalid_output", citations: [], draft: null });
    expect(run.steps[2]!.result).toMatchObject({ detail: expect.stringContaining("unsupported_claim") });
    expect(JSON.stringify(fake.requests.at(-1)!.body.messages)).toContain("is not what [return-policy-us@2] says");
    await heldToTheBoundaries(run);
  });

  it("refuses an uncited promise to move money, even with the order's own amount", async () => {
    const promise =
      "Electronics that arrive damaged may be returned for a full refund within 30 days of delivery [return-policy-us@2]. Executing refund of 79 USD now.";
    const run = await runModel([{ decision: ev }, { decision: lookup }, { decision: draft }, { draft: promise }, { draft: promise }]);
    expect(run).toMatchObject({ status: "needs_human", reason: "tool_invalid_output", draft: null });
    expect(run.steps[2]!.result).toMatchObject({ detail: expect.stringContaining("uncited_claim “Executing refund of 79 USD now.”") });
    await heldToTheBoundaries(run);
  });

  it("accepts a draft repaired after its invented amount was sent back", async () => {
    const invented = "We will refund 120.00 USD within 30 days of delivery [return-policy-us@2].";
    const fixed = "We will refund 79.00 USD: damaged items may be returned within 30 days of delivery [return-policy-us@2].";
    const run = await runModel([
      { decision: ev },
      { decision: lookup },
      { decision: draft },
      { draft: invented },
      { draft: fixed },
      { decision: { action: "request_human_approval", args: { reason: "review" } } },
    ]);
    expect(run).toMatchObject({ status: "needs_human", reason: "draft_ready_for_review", draft: fixed, citations: ["return-policy-us@2"] });
    expect(JSON.stringify(fake.requests.find((r, i) => r.kind === "draft" && i > 3)?.body.messages)).toContain(
      "the number 120 appears in no passage",
    );
    await heldToTheBoundaries(run);
  });

  it("sends back a draft that answers another question than the ticket's, then hands over evidence_off_topic", async () => {
    const { client } = testDb();
    const world = await freshOrder(client);
    const wrong = await wrongItemTicket(client, world);
    // A well-behaved model throughout: it drafts from the passages it was given, which answer a damaged item's question.
    const setup = plannerSetup("model", { baseURL: fake.url, apiKey: "test-key", model: "fake-model", timeoutMs: 2000 });
    const run = await runAgent({ ticketId: wrong, mode: "simulate", planner: setup.planner, tools: setup.tools, model: setup.model });
    expect(run).toMatchObject({ status: "needs_human", reason: "evidence_off_topic", draft: null, citations: [] });
    expect(run.path).toEqual(["get_policy_evidence", "lookup_order", "draft_reply"]);
    expect(fake.requests.filter((r) => r.kind === "draft")).toHaveLength(2);
    expect(JSON.stringify(fake.requests.at(-1)!.body.messages)).toContain("does not answer what the customer asks about (wrong item)");
    await heldToTheBoundaries(run);
  });

  it.each([
    ["a slow answer past the timeout", { delayMs: 800, then: { decision: ev } }],
    ["a 500", { status: 500 }],
  ])("hands over with planner_error on %s", async (_label, entry) => {
    const run = await runModel([entry as never], { timeoutMs: 300 });
    expect(run).toMatchObject({ status: "needs_human", reason: "planner_error", steps: [] });
    await heldToTheBoundaries(run);
  });

  it("waits out a 429 for its Retry-After and carries on as if it had not happened; one that keeps refusing hands over with planner_error", async () => {
    const plain = await runModel([]);
    fake.requests.length = 0;
    const waited = await runModel([{ status: 429, headers: { "retry-after-ms": "400" } }]);
    expect(waited).toMatchObject({ status: plain.status, reason: plain.reason, path: plain.path });
    expect(fake.requests[0]!.status).toBe(429);
    expect(fake.requests[1]!.at - fake.requests[0]!.at).toBeGreaterThanOrEqual(390);
    await heldToTheBoundaries(waited);

    fake.requests.length = 0;
    const refusals = Array.from({ length: RATE_LIMIT_RETRIES + 1 }, () => ({ status: 429, headers: { "retry-after-ms": "20" } }));
    const refused = await runModel(refusals);
    expect(refused).toMatchObject({ status: "needs_human", reason: "planner_error", steps: [] });
    expect(fake.requests).toHaveLength(RATE_LIMIT_RETRIES + 1);
    await heldToTheBoundaries(refused);
  });

  it("enforces the token budget from the usage the endpoint reports", async () => {
    const run = await runModel(
      [
        { decision: ev, usage: { prompt_tokens: 4000, completion_tokens: 100 } },
        { decision: lookup, usage: { prompt_tokens: 4000, completion_tokens: 100 } },
      ],
      { maxTokens: 6000 },
    );
    expect(run).toMatchObject({ status: "needs_human", reason: "token_budget_exceeded", path: ["get_policy_evidence", "lookup_order"] });
    expect(run.budgets.used.tokens).toBe(8200);
  });

  it("keeps a run with a long ticket within its token budget: each call capped to what is left, the call that cannot fit not made", async () => {
    const { client } = testDb();
    const world = await freshOrder(client);
    // About 1,300 tokens of ticket, sent with every call: checked only after each call, such a run spent
    // nearly twice its 6,000-token budget.
    const story = "I have been a customer for years and I always recommend you to friends and family, so this was a surprise. ";
    const long = await ticketFrom(client, world, {
      subject: "Tablet arrived with a cracked screen",
      body: `${story.repeat(50)}My tablet (order ${world.orderId}) arrived with a cracked screen. Can I get a refund?`,
    });
    const counting = await startFakeOpenAI([], { countUsage: true });
    try {
      const setup = plannerSetup("model", { baseURL: counting.url, apiKey: "test-key", model: "fake-model", timeoutMs: 5000 });
      const budget = 6000;
      const run = await runAgent({
        ticketId: long,
        mode: "simulate",
        planner: setup.planner,
        tools: setup.tools,
        model: setup.model,
        budgets: { maxTokens: budget },
      });
      expect(run).toMatchObject({ status: "needs_human", reason: "token_budget_exceeded" });
      expect(run.budgets.used.tokens).toBeLessThanOrEqual(budget);
      // What the endpoint reported is what the run counted, call by call.
      const reported = counting.requests.map((r) => r.usage!.prompt_tokens + r.usage!.completion_tokens);
      expect(run.budgets.used.tokens).toBe(reported.reduce((a, b) => a + b, 0));
      // Each call was sent a max_tokens that fits, with its prompt, in what the run had left before it.
      let left = budget;
      for (const [i, request] of counting.requests.entries()) {
        expect(request.body.max_tokens, `call ${i + 1}`).toBeGreaterThan(0);
        expect(request.usage!.prompt_tokens + request.body.max_tokens!, `call ${i + 1}`).toBeLessThanOrEqual(left);
        left -= reported[i]!;
      }
      expect(counting.requests.length).toBeGreaterThanOrEqual(2);
    } finally {
      await counting.close();
    }
  });

  it("does not send the drafter's repair when it cannot fit, and counts the draft it did pay for", async () => {
    const invented = "We will refund 120.00 USD within 30 days of delivery [return-policy-us@2].";
    const run = await runModel(
      [
        { decision: ev },
        { decision: lookup },
        { decision: draft },
        { draft: invented, usage: { prompt_tokens: 1200, completion_tokens: 50 } },
      ],
      { maxTokens: 2400 },
    );
    expect(run).toMatchObject({
      status: "needs_human",
      reason: "token_budget_exceeded",
      path: ["get_policy_evidence", "lookup_order", "draft_reply"],
    });
    expect(run.steps[2]).toMatchObject({
      outcome: "blocked",
      reason: "token_budget_exceeded",
      promptTokens: 180 + 1200,
      completionTokens: 24 + 50,
    });
    expect(run.budgets.used.tokens).toBe(3 * 204 + 1250);
    // One draft request only: its repair was never sent.
    expect(fake.requests.filter((r) => r.kind === "draft")).toHaveLength(1);
  });
});
