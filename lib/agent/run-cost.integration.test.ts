// What a run costs is its tokens × the configured prices, read straight from its trace rows: a model
// run that completes, one whose model failed half way (charged for the calls it made), a rule-planner
// run (0), and a run of a model with no price (unknown, never 0). Real runtime, real HTTP to the
// local fake model server, MODEL_PRICES as the process reads it.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { useTestDb } from "../../testing/db";
import { ticketId } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { plannerSetup } from "../llm/choose-planner";
import { startFakeOpenAI, type TFakeEntry, type TFakeOpenAI } from "../llm/fake-openai-server";
import { runAgent } from "./run-agent";

const testDb = useTestDb();
let fake: TFakeOpenAI;
let tablet = "";

const PRICES = { "fake-model": { input: 2.5, output: 10, cachedInput: 1.25 } };

function settings(values: Record<string, string>) {
  for (const [name, value] of Object.entries(values)) vi.stubEnv(name, value);
  delete (globalThis as { __countersignEnv?: unknown }).__countersignEnv;
}

beforeAll(async () => {
  settings({ MODEL_PRICES: JSON.stringify(PRICES) });
  await seedDemo(testDb().client);
  tablet = await ticketId(testDb().client, "demo-cracked-tablet");
  fake = await startFakeOpenAI();
});
afterAll(async () => {
  vi.unstubAllEnvs();
  delete (globalThis as { __countersignEnv?: unknown }).__countersignEnv;
  await fake?.close();
});

async function modelRun(model: string, script: TFakeEntry[]) {
  fake.push(...script);
  const setup = plannerSetup("model", { baseURL: fake.url, apiKey: "test-key", model, timeoutMs: 30_000 });
  return runAgent({
    ticketId: tablet,
    mode: "simulate",
    planner: setup.planner,
    tools: setup.tools,
    model: setup.model,
    budgets: { maxWallMs: 120_000 },
    client: testDb().client,
  });
}

/** The run's stored cost, and the one its trace rows give at the configured prices (per million tokens). */
async function storedAndExpected(runId: string) {
  const client = testDb().client;
  const run = await client.agentRun.findUniqueOrThrow({ where: { id: runId }, select: { costUsd: true, tokensUsed: true } });
  const steps = await client.traceEvent.findMany({ where: { runId }, select: { promptTokens: true, completionTokens: true, model: true } });
  const prompt = steps.reduce((n, s) => n + (s.promptTokens ?? 0), 0);
  const completion = steps.reduce((n, s) => n + (s.completionTokens ?? 0), 0);
  return { stored: run.costUsd === null ? null : Number(run.costUsd), prompt, completion, tokensUsed: run.tokensUsed, steps: steps.length };
}

const ev = { action: "get_policy_evidence", args: { question: "refund for damaged electronics: cracked" } };
const lookup = { action: "lookup_order", args: { order_id: "ORD-1001" } };

describe("a run's cost", () => {
  it("is its tokens × the model's prices for a run that completes", async () => {
    const run = await modelRun("fake-model", []);
    const { stored, prompt, completion, tokensUsed } = await storedAndExpected(run.runId);
    expect(prompt + completion).toBe(tokensUsed);
    expect(prompt).toBeGreaterThan(0);
    expect(completion).toBeGreaterThan(0);
    expect(stored).toBeCloseTo((prompt * 2.5 + completion * 10) / 1_000_000, 9);
  });

  it("counts the calls a run made before its model failed half way", async () => {
    const run = await modelRun("fake-model", [{ decision: ev }, { decision: lookup }, { status: 500 }]);
    expect(run).toMatchObject({ status: "needs_human", reason: "planner_error" });
    const { stored, prompt, completion, tokensUsed, steps } = await storedAndExpected(run.runId);
    expect(steps).toBe(2);
    expect(prompt + completion).toBe(tokensUsed);
    expect(prompt).toBe(2 * 180); // the fake's usage per decision: 180 prompt tokens, 24 completion
    expect(stored).toBeGreaterThan(0);
    expect(stored).toBeCloseTo((prompt * 2.5 + completion * 10) / 1_000_000, 9);
  });

  it("prices the prompt tokens the provider served from its cache at the cached-input price, and keeps them on the trace", async () => {
    const usage = { prompt_tokens: 1000, completion_tokens: 50, prompt_tokens_details: { cached_tokens: 600 } };
    const run = await modelRun("fake-model", [{ decision: ev, usage }, { decision: lookup, usage }, { status: 500 }]);
    const { stored, prompt, completion, steps } = await storedAndExpected(run.runId);
    expect(steps).toBe(2);
    expect([prompt, completion]).toEqual([2000, 100]);
    const cached = await testDb().client.traceEvent.findMany({ where: { runId: run.runId }, select: { cachedTokens: true } });
    expect(cached.map((s) => s.cachedTokens)).toEqual([600, 600]);
    // Per step: 400 fresh prompt tokens at 2.5, 600 cached at 1.25, 50 completion at 10 (per million).
    expect(stored).toBeCloseTo((2 * (400 * 2.5 + 600 * 1.25 + 50 * 10)) / 1_000_000, 9);
    expect(stored).toBeLessThan((prompt * 2.5 + completion * 10) / 1_000_000);
  });

  it("is 0 for the rule planner, and unknown for a model with no price", async () => {
    const rule = await runAgent({ ticketId: tablet, mode: "simulate", client: testDb().client });
    expect((await storedAndExpected(rule.runId)).stored).toBe(0);
    const unpriced = await modelRun("a-model-nobody-priced", []);
    const { stored, tokensUsed } = await storedAndExpected(unpriced.runId);
    expect(tokensUsed).toBeGreaterThan(0);
    expect(stored).toBeNull();
  });
});
