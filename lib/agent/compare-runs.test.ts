import { describe, expect, it } from "vitest";
import { compareRuns, type TComparableStep } from "./compare-runs";

const ALLOW = { decision: "allow", reasons: ["allowed"] };

function step(n: number, action: string, extra: Partial<TComparableStep> = {}): TComparableStep {
  return {
    step: n,
    action,
    args: {},
    outcome: "ok",
    reason: null,
    result: null,
    policyDecision: ALLOW,
    promptTokens: 0,
    completionTokens: 0,
    latencyMs: 10,
    ...extra,
  };
}

const evidence = (n: number) =>
  step(n, "get_policy_evidence", {
    args: { question: "cracked screen refund" },
    result: { status: "grounded", citations: ["return-policy-us@2"] },
  });
const lookup = (n: number, extra: Partial<TComparableStep> = {}) =>
  step(n, "lookup_order", { args: { order_id: "ORD-1001" }, result: { found: true, order: { id: "ORD-1001" } }, ...extra });
const proposal = (n: number, id: string) =>
  step(n, "propose_refund", {
    args: { order_id: "ORD-1001", amount_cents: 7900 },
    result: { id, orderId: "ORD-1001", amountCents: 7900, decision: "needs_human", reasons: ["above_autonomy_limit"] },
  });

describe("compareRuns", () => {
  it("marks two runs that decided the same as the same, whatever their durations, tokens and own ids", () => {
    const a = [evidence(1), lookup(2), proposal(3, "11111111-aaaa")];
    const b = [{ ...evidence(1), latencyMs: 900, promptTokens: 812 }, lookup(2), proposal(3, "22222222-bbbb")];
    const comparison = compareRuns(a, b);
    expect(comparison.steps.map((s) => s.change)).toEqual(["same", "same", "same"]);
    expect(comparison.firstDifference).toBeNull();
    expect(comparison.counts).toEqual({ same: 3, changed: 0, added: 0, removed: 0 });
  });

  it("names what differs in a changed step: a policy rewrite changes the outcome, the policy and the arguments", () => {
    const rewritten = lookup(2, {
      args: { order_id: "ORD-9999" },
      outcome: "rewritten",
      policyDecision: {
        decision: "rewrite",
        reasons: ["order_not_on_ticket"],
        action: { action: "lookup_order", args: { order_id: "ORD-1001" } },
      },
    });
    const { steps, firstDifference } = compareRuns([evidence(1), rewritten], [evidence(1), lookup(2)]);
    expect(steps[1]).toMatchObject({ step: 2, change: "changed", differs: ["arguments", "outcome", "policy"] });
    expect(firstDifference).toBe(2);
  });

  it("aligns by position, as the grader does: a step taken in another order is two changed steps", () => {
    const { steps, firstDifference } = compareRuns([evidence(1), lookup(2)], [lookup(1), evidence(2)]);
    expect(steps.map((s) => [s.change, s.differs[0]])).toEqual([
      ["changed", "action"],
      ["changed", "action"],
    ]);
    expect(firstDifference).toBe(1);
  });

  it("marks the steps only the second run took as added, and those only the first took as removed", () => {
    const longer = [evidence(1), lookup(2), proposal(3, "x")];
    const shorter = [evidence(1), lookup(2)];
    const added = compareRuns(shorter, longer);
    expect(added.steps[2]).toMatchObject({ step: 3, a: null, change: "added", differs: [] });
    expect(added.steps[2]!.b!.action).toBe("propose_refund");
    expect(added.firstDifference).toBe(3);
    const removed = compareRuns(longer, shorter);
    expect(removed.steps[2]).toMatchObject({ step: 3, b: null, change: "removed" });
    expect(removed.counts).toEqual({ same: 2, changed: 0, added: 0, removed: 1 });
  });

  it("compares a stop's reason and a result's contents, keys in any order", () => {
    const blocked = step(1, "propose_refund", { outcome: "blocked", reason: "policy_denied" });
    const timedOut = step(1, "propose_refund", { outcome: "blocked", reason: "tool_timeout" });
    expect(compareRuns([blocked], [timedOut]).steps[0]!.differs).toEqual(["reason"]);
    const one = step(1, "draft_reply", { result: { text: "Hi Dana", citations: ["return-policy-us@2"] } });
    const reordered = step(1, "draft_reply", { result: { citations: ["return-policy-us@2"], text: "Hi Dana" } });
    const otherText = step(1, "draft_reply", { result: { text: "Hello Dana", citations: ["return-policy-us@2"] } });
    expect(compareRuns([one], [reordered]).steps[0]!.change).toBe("same");
    expect(compareRuns([one], [otherText]).steps[0]!.differs).toEqual(["result"]);
  });

  it("compares two runs that never entered the loop as having no steps", () => {
    expect(compareRuns([], [])).toEqual({ steps: [], firstDifference: null, counts: { same: 0, changed: 0, added: 0, removed: 0 } });
  });
});
