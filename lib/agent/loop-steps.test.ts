// The loop's steps one at a time: where each stops the run, with which reason and words, and what it
// leaves in the run's journal. The steps that need a database (the tool) are in
// loop-steps.integration.test.ts; the whole loop is in run-agent.integration.test.ts.
import { describe, expect, it } from "vitest";
import type { TAllowedAction } from "../contracts/actions";
import {
  askPlanner,
  askPolicy,
  checkBudgets,
  checkDecision,
  checkObservation,
  checkTransition,
  recordStep,
  type TDecided,
  type TGated,
  type TPlanned,
  type TRan,
  type TStep,
} from "./loop-steps";
import { scriptedPlanner, TokenBudgetRefusal, type TPlanner } from "./planner";
import { RunJournal, type TTraceStep } from "./run-journal";
import { initialState, type TAgentState } from "./state";
import { ORDER_FACTS as ORDER } from "../../testing/order-facts";

const RUN_ID = "8b0c2f4e-5d1a-4c3b-9e7f-1a2b3c4d5e6f";
const LIMITS = { maxSteps: 3, maxTokens: 100, maxWallMs: 10_000, toolTimeoutMs: 1_000 };
/** A run as the steps see it, before its first step. */
function loopRun(
  over: { state?: Partial<TAgentState>; planner?: TPlanner; limits?: Partial<typeof LIMITS>; orderRef?: string | null } = {},
) {
  const orderRef = over.orderRef === undefined ? "ORD-1" : over.orderRef;
  const state = initialState({
    id: "ticket-1",
    number: 1,
    subject: "Cracked",
    body: "My tablet",
    customerEmail: "ada@example.net",
    orderRef,
  });
  return {
    runId: RUN_ID,
    ticket: { id: "ticket-1", orderRef, salt: null },
    planner: over.planner ?? scriptedPlanner([]),
    forbidden: ["issue_refund"],
    limits: { ...LIMITS, ...over.limits },
    recorder: { journal: new RunJournal(RUN_ID) },
    state: { ...state, ...over.state },
    tokens: 0,
    startedAt: performance.now(),
  };
}
type TLoopRun = ReturnType<typeof loopRun>;

function goOf<T>(step: TStep<T>): T {
  if ("stop" in step) throw new Error(`stopped: ${step.stop.reason}: ${step.stop.detail}`);
  return step.go;
}
const stopOf = <T>(step: TStep<T>) => ("stop" in step ? { reason: step.stop.reason, detail: step.stop.detail } : null);

/** The planner's answer for `decision`, as askPlanner gives it on. */
async function planned(run: TLoopRun, decision: unknown): Promise<TPlanned> {
  return goOf(
    await askPlanner({
      ...run,
      planner: scriptedPlanner([{ decision, usage: { promptTokens: 3, completionTokens: 4 }, model: "m-1", promptVersion: "p-1" }], {
        wrapped: true,
      }),
    }),
  );
}
const decided = (p: TPlanned, action: TAllowedAction): TDecided => ({ ...p, action });
const gated = (d: TDecided): TGated => ({ ...d, gate: { decision: "allow", reasons: ["allowed"] }, outcome: "ok" });
const ran = (g: TGated, observation: unknown): TRan => ({
  ...g,
  observation,
  toolUsage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0, model: null, promptVersion: null },
});

describe("the planner's turn (askPlanner)", () => {
  it("passes the decision on as given, with the step's number, and counts its tokens on the run", async () => {
    const decision = { action: "x".repeat(90), args: 7 };
    const run = loopRun({ planner: scriptedPlanner([{ decision, usage: { promptTokens: 5, completionTokens: 6 } }], { wrapped: true }) });
    const p = goOf(await askPlanner(run));
    expect(p).toMatchObject({ stepNo: 1, raw: decision, rawAction: "x".repeat(80), rawArgs: 7 });
    expect(p.meta).toEqual({ promptTokens: 5, completionTokens: 6, cachedTokens: 0, model: null, promptVersion: null });
    expect(run.tokens).toBe(11);
  });

  it("stops with planner_error when the planner throws, and latency_budget_exceeded when it answers after the time left", async () => {
    const throwing: TPlanner = {
      id: "throwing",
      decide: async () => {
        throw new Error("the model is down");
      },
    };
    expect(stopOf(await askPlanner(loopRun({ planner: throwing })))).toEqual({ reason: "planner_error", detail: "the model is down" });
    const slow: TPlanner = {
      id: "slow",
      // Would answer in a second; the runtime's abort at the budget's end stops it for good.
      decide: (_s, signal) =>
        new Promise((resolve) => {
          const timer = setTimeout(() => resolve({ decision: null }), 1_000);
          signal.addEventListener("abort", () => clearTimeout(timer));
        }),
    };
    expect(stopOf(await askPlanner(loopRun({ planner: slow, limits: { maxWallMs: 30 } })))).toEqual({
      reason: "latency_budget_exceeded",
      detail: "the planner did not answer within the 30 ms budget",
    });
  });

  it("tells the planner the tokens left, and stops token_budget_exceeded when its model call cannot fit, counting what it spent", async () => {
    let told: unknown;
    const frugal: TPlanner = {
      id: "frugal",
      decide: async (_state, _signal, budget) => {
        told = budget;
        throw new TokenBudgetRefusal("the next model call (decision) needs about 900 tokens and 60 are left of the budget", {
          promptTokens: 20,
          completionTokens: 10,
        });
      },
    };
    const run = { ...loopRun({ planner: frugal }), tokens: 40 };
    expect(stopOf(await askPlanner(run))).toEqual({
      reason: "token_budget_exceeded",
      detail: "the next model call (decision) needs about 900 tokens and 60 are left of the budget (70 tokens used of 100)",
    });
    expect(told).toEqual({ tokensLeft: 60 });
    expect(run.tokens).toBe(70);
  });
});

describe("step 1, the decision (checkDecision)", () => {
  it("blocks a forbidden action with its precise reason, journals the refusal and traces it as blocked", async () => {
    const run = loopRun();
    const step = checkDecision(run, await planned(run, { action: "issue_refund", args: { amount_cents: 100 } }));
    expect(stopOf(step)).toEqual({ reason: "forbidden_action", detail: "issue_refund is forbidden to the agent" });
    const { journal } = run.recorder;
    expect(journal.steps).toEqual([
      expect.objectContaining({
        step: 1,
        action: "issue_refund",
        args: { amount_cents: 100 },
        outcome: "blocked",
        reason: "forbidden_action",
        result: { detail: "issue_refund is forbidden to the agent" },
        policyDecision: null,
        promptTokens: 3,
        completionTokens: 4,
        model: "m-1",
        promptVersion: "p-1",
      }),
    ]);
    expect(journal.unwrittenEvents()).toEqual([
      expect.objectContaining({ action: "decision.blocked", subjectId: RUN_ID, policyDecision: { reason: "forbidden_action" } }),
    ]);
    expect(run.state.history).toEqual([{ action: "issue_refund", outcome: "blocked" }]);
  });

  it.each([
    ["not an object", "draft_reply", "invalid_decision", "the decision is not an object"],
    ["off the allowlist", { action: "delete_ticket", args: {} }, "invalid_action", "delete_ticket is not an allowlisted action"],
    [
      "with an argument too many",
      { action: "lookup_order", args: { order_id: "ORD-1", amount: 5 } },
      "unexpected_arguments",
      "unexpected: amount",
    ],
    ["with an argument missing", { action: "lookup_order", args: {} }, "missing_arguments", "missing: order_id"],
    [
      "with an argument of the wrong type",
      { action: "lookup_order", args: { order_id: 7 } },
      "invalid_argument_types",
      "order_id: Invalid input: expected string, received number",
    ],
  ])("blocks a decision %s, naming why", async (_label, decision, reason, detail) => {
    const run = loopRun();
    expect(stopOf(checkDecision(run, await planned(run, decision)))).toEqual({ reason, detail });
    expect(run.recorder.journal.steps.map((s) => [s.outcome, s.reason])).toEqual([["blocked", reason]]);
  });

  it("goes on with the parsed action, journaling nothing", async () => {
    const run = loopRun();
    const next = goOf(checkDecision(run, await planned(run, { action: "lookup_order", args: { order_id: "ORD-1" } })));
    expect(next.action).toEqual({ action: "lookup_order", args: { order_id: "ORD-1" } });
    expect(run.recorder.journal.steps).toEqual([]);
  });
});

describe("step 2, the transition (checkTransition)", () => {
  it("blocks a draft before grounded evidence, and a refund above what is still refundable", async () => {
    const run = loopRun({ state: { order: { found: true, order: ORDER } } });
    const draft = decided(await planned(run, null), { action: "draft_reply", args: {} });
    expect(stopOf(checkTransition(run, draft))).toEqual({
      reason: "invalid_state_transition",
      detail: "a draft needs grounded evidence first",
    });
    const refund = decided(await planned(run, null), {
      action: "propose_refund",
      args: { order_id: "ORD-1", amount_cents: 6001, reason: "cracked" },
    });
    expect(stopOf(checkTransition(run, refund))).toEqual({
      reason: "invalid_state_transition",
      detail: "the amount exceeds what is still refundable (6000 cents)",
    });
    expect(run.recorder.journal.steps.map((s) => [s.action, s.outcome])).toEqual([
      ["draft_reply", "blocked"],
      ["propose_refund", "blocked"],
    ]);
  });

  it("lets through exactly what is still refundable", async () => {
    const run = loopRun({ state: { order: { found: true, order: ORDER } } });
    const refund = decided(await planned(run, null), {
      action: "propose_refund",
      args: { order_id: "ORD-1", amount_cents: 6000, reason: "cracked" },
    });
    expect(goOf(checkTransition(run, refund))).toBe(refund);
  });
});

describe("step 3, the policy gate (askPolicy)", () => {
  const refund = (order_id: string): TAllowedAction => ({
    action: "propose_refund",
    args: { order_id, amount_cents: 100, reason: "cracked" },
  });

  it("blocks a refund on another order than the ticket's as policy_denied, with the gate's decision in the trace", async () => {
    const run = loopRun();
    const step = askPolicy(run, decided(await planned(run, null), refund("ORD-2")));
    expect(stopOf(step)).toEqual({ reason: "policy_denied", detail: "policy denied propose_refund: order_not_on_ticket" });
    expect(run.recorder.journal.steps[0]).toMatchObject({
      outcome: "blocked",
      policyDecision: { decision: "deny", reasons: ["order_not_on_ticket"] },
    });
  });

  it("rewrites a lookup to the ticket's order, and turns a refund on a ticket naming no order into a hand-off", async () => {
    const run = loopRun();
    const lookup = goOf(askPolicy(run, decided(await planned(run, null), { action: "lookup_order", args: { order_id: "ORD-2" } })));
    expect([lookup.outcome, lookup.action]).toEqual(["rewritten", { action: "lookup_order", args: { order_id: "ORD-1" } }]);
    const noOrder = loopRun({ orderRef: null });
    const escalated = goOf(askPolicy(noOrder, decided(await planned(noOrder, null), refund("ORD-1"))));
    expect([escalated.outcome, escalated.action]).toEqual([
      "escalated",
      { action: "request_human_approval", args: { reason: "Escalated by policy: order_not_named_by_customer" } },
    ]);
    expect(run.recorder.journal.steps).toEqual([]);
  });
});

describe("step 5, the observation (checkObservation)", () => {
  it("stops an observation out of its schema as tool_invalid_output, traced as invalid_output", async () => {
    const run = loopRun();
    const lookup = gated(decided(await planned(run, null), { action: "lookup_order", args: { order_id: "ORD-1" } }));
    const step = checkObservation(run, ran(lookup, { found: true, order: { ...ORDER, refundableCents: -1 } }));
    expect(stopOf(step)?.reason).toBe("tool_invalid_output");
    expect(stopOf(step)?.detail).toMatch(/^lookup_order returned an invalid observation: /);
    expect(run.recorder.journal.steps[0]).toMatchObject({
      action: "lookup_order",
      outcome: "invalid_output",
      reason: "tool_invalid_output",
    });
  });

  it("holds a draft to its invariants whichever tool wrote it: a citation this run did not retrieve stops it", async () => {
    const run = loopRun({ state: { order: { found: true, order: ORDER } } });
    const draft = gated(decided(await planned(run, null), { action: "draft_reply", args: {} }));
    const step = checkObservation(run, ran(draft, { text: "We will refund you [returns@1].", citations: ["returns@1"] }));
    expect(stopOf(step)?.reason).toBe("tool_invalid_output");
    expect(stopOf(step)?.detail).toMatch(/^draft failed its checks: /);
    expect(run.recorder.journal.steps[0]?.outcome).toBe("invalid_output");
  });

  it("hands over evidence_off_topic when a draft, grounded sentence by sentence, answers another question", async () => {
    const passage = {
      chunkId: "c1",
      docKey: "returns",
      version: 1,
      citation: "returns@1",
      title: "US return policy: damaged electronics",
      heading: "US return policy: damaged electronics: Returns and refunds",
      text: "Electronics that arrive damaged may be returned for a full refund within 30 days of delivery.",
      locale: "en",
      audience: "customer" as const,
      score: 0.5,
      coverage: 1,
    };
    const evidence = { status: "grounded" as const, question: "q", passages: [passage], citations: ["returns@1"] };
    const text = "Electronics that arrive damaged may be returned for a full refund within 30 days of delivery [returns@1].";
    const answer = async (subject: string, body: string) => {
      const run = loopRun({ state: { order: { found: true, order: ORDER }, evidence } });
      run.state.ticket = { ...run.state.ticket, subject, body };
      const draft = gated(decided(await planned(run, null), { action: "draft_reply", args: {} }));
      return { step: checkObservation(run, ran(draft, { text, citations: ["returns@1"] })), run };
    };
    const lost = await answer("Lost parcel", "My order never arrived. How long do I have to report it?");
    expect(stopOf(lost.step)).toEqual({
      reason: "evidence_off_topic",
      detail: "draft failed its checks: off_topic [returns@1] does not answer what the ticket asks about (“lost parcel”, “never arrived”)",
    });
    expect(lost.run.recorder.journal.steps[0]).toMatchObject({
      action: "draft_reply",
      outcome: "invalid_output",
      reason: "evidence_off_topic",
    });
    // The same draft for the question it answers goes on.
    expect(goOf((await answer("Cracked screen", "My tablet arrived with a cracked screen. Can I return it?")).step).parsed).toMatchObject({
      text,
    });
  });

  it("goes on with the parsed observation, tracing nothing yet", async () => {
    const run = loopRun();
    const lookup = gated(decided(await planned(run, null), { action: "lookup_order", args: { order_id: "ORD-9" } }));
    expect(goOf(checkObservation(run, ran(lookup, { found: false, orderId: "ORD-9" }))).parsed).toEqual({ found: false, orderId: "ORD-9" });
    expect(run.recorder.journal.steps).toEqual([]);
  });
});

describe("step 6, the trace event and the state (recordStep)", () => {
  const proposal = (decision: "needs_human" | "auto_approved" | "denied") => ({
    id: "5f6e7d8c-0000-4000-8000-000000000000",
    orderId: "ORD-1",
    amountCents: 500,
    currency: "USD",
    reason: "cracked",
    decision,
    reasons: decision === "denied" ? ["customer_flagged"] : [],
    requiredRole: decision === "needs_human" ? "REVIEWER" : null,
    policyVersion: "v1",
  });
  const observed = async (run: TLoopRun, action: TAllowedAction, parsed: unknown, outcome: TGated["outcome"] = "ok") => {
    const r = ran({ ...gated(decided(await planned(run, null), action)), outcome }, parsed);
    return { ...r, parsed };
  };

  it("traces the step, then stores the observation and goes on", async () => {
    const run = loopRun();
    const step = recordStep(
      run,
      await observed(run, { action: "lookup_order", args: { order_id: "ORD-1" } }, { found: true, order: ORDER }),
    );
    expect(goOf(step)).toBeNull();
    expect(run.state.order).toEqual({ found: true, order: ORDER });
    expect(run.recorder.journal.steps[0]).toMatchObject({
      step: 1,
      action: "lookup_order",
      outcome: "ok",
      reason: null,
      result: { found: true, order: ORDER },
    });
  });

  it("stops on a proposal the policy denied, and on one within the dial", async () => {
    const args = { order_id: "ORD-1", amount_cents: 500, reason: "cracked" };
    const denied = loopRun();
    expect(stopOf(recordStep(denied, await observed(denied, { action: "propose_refund", args }, proposal("denied"))))).toEqual({
      reason: "policy_denied",
      detail: "refund proposal denied: customer_flagged",
    });
    const auto = loopRun();
    expect(stopOf(recordStep(auto, await observed(auto, { action: "propose_refund", args }, proposal("auto_approved"))))).toEqual({
      reason: "refund_auto_approved",
      detail: "within the autonomy dial",
    });
    const waiting = loopRun();
    expect(goOf(recordStep(waiting, await observed(waiting, { action: "propose_refund", args }, proposal("needs_human"))))).toBeNull();
  });

  it("ends a hand-off with what the state explains: a draft ready for review, or the gate's escalation", async () => {
    const handOff = { action: "request_human_approval", args: { reason: "please check" } } as const;
    const drafted = loopRun({ state: { draft: { text: "Hello", citations: ["returns@1"] } } });
    expect(stopOf(recordStep(drafted, await observed(drafted, handOff, { handedOff: true, reason: "please check" })))).toEqual({
      reason: "draft_ready_for_review",
      detail: "please check",
    });
    const escalated = loopRun({ state: { draft: { text: "Hello", citations: ["returns@1"] } } });
    const step = recordStep(escalated, await observed(escalated, handOff, { handedOff: true, reason: "Escalated" }, "escalated"));
    expect(stopOf(step)?.reason).toBe("planner_requested_handoff");
    expect(escalated.recorder.journal.steps[0]?.outcome).toBe("escalated");
  });
});

describe("step 7, the budgets (checkBudgets)", () => {
  const traced = (step: number): TTraceStep => ({
    step,
    action: "lookup_order",
    args: { order_id: "ORD-1" },
    outcome: "ok",
    reason: null,
    result: null,
    policyDecision: null,
    promptTokens: 0,
    completionTokens: 0,
    latencyMs: 1,
    model: null,
    promptVersion: null,
  });

  it("goes on below every limit, and stops with needs_human's reasons at the step limit, over the tokens and over the time", () => {
    const run = loopRun();
    expect(goOf(checkBudgets(run))).toBeNull();
    const steps = loopRun();
    for (let step = 1; step <= 2; step++) steps.recorder.journal.step(traced(step));
    expect(goOf(checkBudgets(steps))).toBeNull();
    steps.recorder.journal.step(traced(3));
    expect(stopOf(checkBudgets(steps))).toEqual({ reason: "step_budget_exhausted", detail: "3 steps used" });
    expect(goOf(checkBudgets({ ...run, tokens: 100 }))).toBeNull();
    expect(stopOf(checkBudgets({ ...run, tokens: 101 }))).toEqual({ reason: "token_budget_exceeded", detail: "101 tokens used of 100" });
    const late = checkBudgets({ ...run, startedAt: performance.now() - 10_050 });
    expect(stopOf(late)?.reason).toBe("latency_budget_exceeded");
    expect(stopOf(late)?.detail).toMatch(/^\d+ ms used of 10000$/);
  });
});
