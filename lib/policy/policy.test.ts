import { describe, expect, it } from "vitest";
import { evaluateAction } from "./evaluate-action";
import { evaluateRefund, type TRefundFacts } from "./evaluate-refund";
import { DEFAULT_SETTINGS, POLICY_RULES_VERSION, policyVersion } from "./settings";
import { canonicalJson, sha256Hex } from "../contracts/canonical";

const facts: TRefundFacts = {
  amountCents: 7900,
  currency: "USD",
  orderCurrency: "USD",
  customerFlagged: false,
  autoApprovedTodayCents: 0,
  customerProposalsToday: 0,
};
const dial = (limit: number) => ({ ...DEFAULT_SETTINGS, "autonomy.autoApproveLimitCents": limit });

describe("refund policy", () => {
  it("auto-approves nothing while the dial is at zero", () => {
    expect(evaluateRefund(facts, DEFAULT_SETTINGS)).toMatchObject({
      decision: "needs_human",
      reasons: ["above_autonomy_limit"],
      requiredRole: "REVIEWER",
    });
  });

  it("auto-approves at or below the dial and under the daily cap only", () => {
    expect(evaluateRefund(facts, dial(7900))).toMatchObject({ decision: "auto_approved", reasons: ["within_autonomy_limit"] });
    expect(evaluateRefund(facts, dial(7899))).toMatchObject({ decision: "needs_human", reasons: ["above_autonomy_limit"] });
    expect(evaluateRefund({ ...facts, autoApprovedTodayCents: 45_000 }, dial(10_000))).toMatchObject({
      decision: "needs_human",
      reasons: ["daily_cap_reached"],
    });
  });

  it("sends flagged accounts and large refunds to a person, a specialist at 500 USD and above", () => {
    expect(evaluateRefund({ ...facts, customerFlagged: true }, dial(10_000))).toMatchObject({
      decision: "needs_human",
      reasons: ["flagged_account"],
    });
    expect(evaluateRefund({ ...facts, amountCents: 50_000 }, dial(100_000))).toMatchObject({
      decision: "needs_human",
      requiredRole: "SPECIALIST",
      reasons: ["specialist_required"],
    });
    expect(evaluateRefund({ ...facts, amountCents: 49_999 }, DEFAULT_SETTINGS)).toMatchObject({ requiredRole: "REVIEWER" });
  });

  it("denies past the per-customer rate limit, and what no rule allows", () => {
    expect(evaluateRefund({ ...facts, customerProposalsToday: 3 }, dial(10_000))).toMatchObject({
      decision: "denied",
      reasons: ["customer_rate_limited"],
    });
    expect(evaluateRefund({ ...facts, amountCents: 0 }, dial(10_000))).toMatchObject({ decision: "denied", reasons: ["invalid_amount"] });
    expect(evaluateRefund({ ...facts, currency: "EUR" }, dial(10_000))).toMatchObject({
      decision: "denied",
      reasons: ["currency_mismatch"],
    });
  });

  it("versions every decision with the settings in force", () => {
    expect(evaluateRefund(facts, DEFAULT_SETTINGS).policyVersion).toBe(policyVersion(DEFAULT_SETTINGS));
    expect(policyVersion(dial(100))).not.toBe(policyVersion(DEFAULT_SETTINGS));
    expect(policyVersion(DEFAULT_SETTINGS)).toMatch(/^refund-policy-v1\+[0-9a-f]{10}$/);
  });

  it("keeps the version when only a queue SLA target changes: no approval goes stale for it", () => {
    expect(policyVersion({ ...DEFAULT_SETTINGS, "queue.slaApprovalHours": 9, "queue.slaHandoffHours": 99 })).toBe(
      policyVersion(DEFAULT_SETTINGS),
    );
  });

  it("keeps the version when only the default planner changes: which planner runs decides no refund", () => {
    const raised = dial(10_000);
    expect(policyVersion({ ...DEFAULT_SETTINGS, "agent.defaultPlanner": "model" })).toBe(policyVersion(DEFAULT_SETTINGS));
    expect(policyVersion({ ...raised, "agent.defaultPlanner": "model" })).toBe(policyVersion(raised));
  });

  it("keeps the version when only the least role that may publish documents changes: it decides who edits evidence, not refunds", () => {
    expect(policyVersion({ ...DEFAULT_SETTINGS, "documents.publishRole": "SPECIALIST" })).toBe(policyVersion(DEFAULT_SETTINGS));
  });

  // What the refund policy, the autonomy dial (and raising it) read: each must move the version, or an
  // approval would be executed under limits nobody saw when it was made.
  it.each([
    ["autonomy.autoApproveLimitCents", 1],
    ["autonomy.requiredAgreements", 201],
    ["policy.dailyCapCents", 49_999],
    ["policy.specialistThresholdCents", 49_999],
    ["policy.twoPersonThresholdCents", 99_999],
    ["policy.customerRefundsPerDay", 4],
  ] as const)("moves the version when %s changes", (key, value) => {
    expect(DEFAULT_SETTINGS[key]).not.toBe(value);
    expect(policyVersion({ ...DEFAULT_SETTINGS, [key]: value })).not.toBe(policyVersion(DEFAULT_SETTINGS));
  });

  it("keeps the version an installation had before the default planner left it, while the rule planner is the default", () => {
    // The version as it was computed before: every setting but the queue's, the default planner included
    // (the publish role, the annotation share and the series' thresholds came later, never in the hash).
    const before = (settings: typeof DEFAULT_SETTINGS) => {
      const hashed = Object.fromEntries(
        Object.entries(settings).filter(
          ([key]) =>
            !key.startsWith("queue.") && !key.startsWith("documents.") && !key.startsWith("annotation.") && !key.startsWith("watch."),
        ),
      );
      return `${POLICY_RULES_VERSION}+${sha256Hex(canonicalJson(hashed)).slice(0, 10)}`;
    };
    for (const settings of [
      DEFAULT_SETTINGS,
      dial(2_500),
      { ...DEFAULT_SETTINGS, "policy.dailyCapCents": 12_345, "queue.slaHandoffHours": 48 },
    ]) {
      expect(policyVersion(settings)).toBe(before(settings));
    }
  });
});

describe("action policy", () => {
  const ticket = { orderRef: "ORD-1001" };
  it("allows reading and drafting", () => {
    expect(evaluateAction({ action: "get_policy_evidence", args: { question: "q?" } }, ticket)).toMatchObject({ decision: "allow" });
    expect(evaluateAction({ action: "draft_reply", args: {} }, ticket)).toMatchObject({ decision: "allow" });
  });

  it("rewrites a lookup of another order to the ticket's own order", () => {
    expect(evaluateAction({ action: "lookup_order", args: { order_id: "ORD-2002" } }, ticket)).toEqual({
      decision: "rewrite",
      reasons: ["order_not_on_ticket"],
      action: { action: "lookup_order", args: { order_id: "ORD-1001" } },
    });
    expect(evaluateAction({ action: "lookup_order", args: { order_id: "ord-1001" } }, ticket)).toMatchObject({ decision: "allow" });
  });

  it("denies a refund on another order, and escalates one on a ticket that names no order", () => {
    const propose = (order_id: string) => ({ action: "propose_refund" as const, args: { order_id, amount_cents: 100, reason: "damaged" } });
    expect(evaluateAction(propose("ORD-2002"), ticket)).toMatchObject({ decision: "deny", reasons: ["order_not_on_ticket"] });
    expect(evaluateAction(propose("ORD-2002"), { orderRef: null })).toMatchObject({
      decision: "escalate",
      reasons: ["order_not_named_by_customer"],
    });
  });

  it("denies by default what it has no rule for", () => {
    expect(evaluateAction({ action: "issue_refund", args: {} } as never, ticket)).toMatchObject({
      decision: "deny",
      reasons: ["not_allowlisted"],
    });
  });
});
