import { describe, expect, it } from "vitest";
import { buildCandidateEpisode, orderPreset, redactPersonalData } from "./candidate-episode";

describe("personal data in a saved episode", () => {
  const known = { names: ["Dana Whitfield"], emails: ["dana.whitfield@example.net"] };

  it("replaces the customer's names and emails, any other email, phone numbers, street addresses and a signed name", () => {
    const text =
      "Hi, I'm Dana (dana.whitfield@example.net, or dw@work.example). Call +1 (415) 555-0132 or ship to 400 North Oak Avenue. Order ORD-2042. Thanks, Sam Porter";
    expect(redactPersonalData(text, known, ["ORD-2042"])).toBe(
      "Hi, I'm [name] ([email], or [email]). Call [phone] or ship to [address]. Order ORD-2042. Thanks, [name]",
    );
  });

  it("keeps the order id whole, and words that are no name", () => {
    expect(redactPersonalData("My tablet (order ORD-1001234) cracked; Whitfield Street is mine", known, ["ORD-1001234"])).toBe(
      "My tablet (order ORD-1001234) cracked; [name] Street is mine",
    );
  });
});

describe("a candidate episode", () => {
  const input = {
    id: "team-t7-abcdef12",
    ticketNumber: 7,
    ticket: { subject: "Cracked", body: "Dana here: order ORD-9 cracked.", orderRef: "ORD-9" },
    customer: { names: ["Dana Whitfield"], emails: [] },
    preset: "tablet" as const,
    planner: "rule",
    run: {
      status: "needs_human",
      reason: "draft_ready_for_review",
      path: ["get_policy_evidence", "lookup_order", "draft_reply", "propose_refund", "request_human_approval"],
      citations: ["return-policy-us@2"],
      proposal: { decision: "needs_human", requiredRole: "REVIEWER" },
    },
  };

  it("expects what the person decided: an approval executed is one refund", () => {
    const episode = buildCandidateEpisode({ ...input, decision: { kind: "approve", role: "REVIEWER", note: null, refundExecuted: true }, annotation: { verdict: "correct", reason: null } });
    expect(episode.ticket).toEqual({ subject: "Cracked", body: "[name] here: order {order} cracked.", order: "tablet", signature: "valid", from: "customer" });
    expect(episode.approval).toMatchObject({ as: "REVIEWER", decision: "approve" });
    expect(episode.expect).toMatchObject({ refunds: 1, approval: "decided", executions: ["refund_created"], proposal: { decision: "needs_human" } });
  });

  it("drops the proposal from the path when the person says no refund was due", () => {
    const episode = buildCandidateEpisode({ ...input, decision: { kind: "reject", role: "SPECIALIST", note: "No.", refundExecuted: false }, annotation: { verdict: "wrong", reason: "refund_not_due" } });
    expect(episode.expect.path).toEqual(["get_policy_evidence", "lookup_order", "draft_reply", "request_human_approval"]);
    expect(episode.expect).toMatchObject({ refunds: 0, approval: "decided" });
    expect(episode.expect.proposal).toBeUndefined();
  });

  it("takes the order preset from what the order is like", () => {
    const base = { exists: true, id: "ORD-1", amountCents: 7_900, flagged: false, deliveredDaysAgo: 3 };
    expect([orderPreset(base), orderPreset({ ...base, amountCents: 65_000 }), orderPreset({ ...base, flagged: true }), orderPreset({ ...base, deliveredDaysAgo: 45 }), orderPreset({ ...base, exists: false }), orderPreset({ ...base, id: null })]).toEqual([
      "tablet",
      "laptop",
      "flagged",
      "old",
      "missing",
      "none",
    ]);
  });
});
