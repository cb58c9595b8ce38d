// The policy rules at their edges: each bound on the side it allows and the side it refuses.
import { describe, expect, it } from "vitest";
import { evaluateAction } from "./evaluate-action";
import { approvalGate, evaluateRefund, type TRefundFacts } from "./evaluate-refund";
import { DEFAULT_SETTINGS } from "./settings";

const facts: TRefundFacts = {
  amountCents: 7900,
  currency: "USD",
  orderCurrency: "USD",
  customerFlagged: false,
  autoApprovedTodayCents: 0,
  customerProposalsToday: 0,
};
const settings = {
  ...DEFAULT_SETTINGS,
  "autonomy.autoApproveLimitCents": 10_000,
  "policy.dailyCapCents": 50_000,
  "policy.customerRefundsPerDay": 3,
  "policy.specialistThresholdCents": 50_000,
};

describe("refund policy at its bounds", () => {
  it.each([
    ["a fraction of a cent", 79.5],
    ["a negative amount", -100],
    ["not a number", Number.NaN],
    ["past the safe integers", 2 ** 53],
  ])("denies %s as invalid_amount", (_label, amountCents) => {
    expect(evaluateRefund({ ...facts, amountCents }, settings)).toMatchObject({
      decision: "denied",
      reasons: ["invalid_amount"],
      requiredRole: null,
    });
  });

  it("allows a single cent", () => {
    expect(evaluateRefund({ ...facts, amountCents: 1 }, settings)).toMatchObject({ decision: "auto_approved" });
  });

  it("counts the customer's proposals up to the limit, and denies at it", () => {
    expect(evaluateRefund({ ...facts, customerProposalsToday: 2 }, settings)).toMatchObject({ decision: "auto_approved" });
    expect(evaluateRefund({ ...facts, customerProposalsToday: 3 }, settings)).toEqual(
      expect.objectContaining({ decision: "denied", reasons: ["customer_rate_limited"], requiredRole: null }),
    );
  });

  it("auto-approves up to the daily cap exactly, and hands on what would pass it", () => {
    expect(evaluateRefund({ ...facts, autoApprovedTodayCents: 50_000 - 7900 }, settings)).toMatchObject({
      decision: "auto_approved",
      reasons: ["within_autonomy_limit"],
      requiredRole: "REVIEWER",
    });
    expect(evaluateRefund({ ...facts, autoApprovedTodayCents: 50_000 - 7899 }, settings)).toMatchObject({
      decision: "needs_human",
      reasons: ["daily_cap_reached"],
      requiredRole: "REVIEWER",
    });
  });

  it("gives every reason that applies, in order, and no daily-cap reason to what is above the dial", () => {
    const big = { ...facts, amountCents: 60_000, customerFlagged: true, autoApprovedTodayCents: 49_000 };
    expect(evaluateRefund(big, settings)).toMatchObject({
      decision: "needs_human",
      reasons: ["flagged_account", "specialist_required", "above_autonomy_limit"],
      requiredRole: "SPECIALIST",
    });
  });

  it("needs a specialist from the threshold on, a reviewer below it", () => {
    const high = { ...settings, "autonomy.autoApproveLimitCents": 100_000, "policy.dailyCapCents": 1_000_000 };
    expect(evaluateRefund({ ...facts, amountCents: 50_000 }, high)).toMatchObject({
      decision: "needs_human",
      reasons: ["specialist_required"],
      requiredRole: "SPECIALIST",
    });
    expect(evaluateRefund({ ...facts, amountCents: 49_999 }, high)).toMatchObject({ decision: "auto_approved", requiredRole: "REVIEWER" });
  });

  it("needs two people from the two-person threshold on, one below it, whatever else applies", () => {
    const twoAt = {
      ...settings,
      "autonomy.autoApproveLimitCents": 100_000,
      "policy.dailyCapCents": 1_000_000,
      "policy.specialistThresholdCents": 90_000,
      "policy.twoPersonThresholdCents": 80_000,
    };
    expect(evaluateRefund({ ...facts, amountCents: 80_000 }, twoAt)).toEqual(
      expect.objectContaining({
        decision: "needs_human",
        reasons: ["two_person_required"],
        requiredRole: "REVIEWER",
        approvalsRequired: 2,
      }),
    );
    expect(evaluateRefund({ ...facts, amountCents: 79_999 }, twoAt)).toEqual(
      expect.objectContaining({ decision: "auto_approved", reasons: ["within_autonomy_limit"], approvalsRequired: 1 }),
    );
    expect(approvalGate(80_000, twoAt)).toEqual({ requiredRole: "REVIEWER", approvalsRequired: 2 });
    expect(approvalGate(90_000, twoAt)).toEqual({ requiredRole: "SPECIALIST", approvalsRequired: 2 });
    expect(approvalGate(79_999, twoAt)).toEqual({ requiredRole: "REVIEWER", approvalsRequired: 1 });
  });
});

describe("action policy at its bounds", () => {
  it("allows asking for a person, and any lookup on a ticket that names no order", () => {
    expect(evaluateAction({ action: "request_human_approval", args: { reason: "review" } }, { orderRef: "ORD-1001" })).toEqual({
      decision: "allow",
      reasons: ["allowed"],
    });
    expect(evaluateAction({ action: "lookup_order", args: { order_id: "ORD-2002" } }, { orderRef: null })).toEqual({
      decision: "allow",
      reasons: ["allowed"],
    });
  });

  it("compares order ids without case or surrounding spaces, on either side", () => {
    expect(evaluateAction({ action: "lookup_order", args: { order_id: " ord-1001 " } }, { orderRef: "ORD-1001" })).toEqual({
      decision: "allow",
      reasons: ["allowed"],
    });
    expect(
      evaluateAction(
        { action: "propose_refund", args: { order_id: "ord-1001", amount_cents: 100, reason: "cracked" } },
        { orderRef: " ORD-1001\n" },
      ),
    ).toEqual({ decision: "allow", reasons: ["allowed"] });
  });
});
