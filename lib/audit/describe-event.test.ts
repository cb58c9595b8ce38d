import { describe, expect, it } from "vitest";
import { AUDIT_ACTIONS } from "../contracts/audit-actions";
import { describeAuditEvent, type TDescribable } from "./describe-event";

const event = (over: Partial<TDescribable>): TDescribable => ({ action: "ticket.created", actorType: "system", actorName: null, subjectType: "ticket", ticket: { number: 12 }, inputs: {}, ...over });

describe("describeAuditEvent", () => {
  it("says who did what to what, and why, with people by name", () => {
    const names = new Map([["u-2", "Sam Specialist"]]);
    expect(describeAuditEvent(event({ action: "approval.rejected", actorType: "user", actorName: "Riley Reviewer", inputs: { kind: "refund", note: "No photo yet." } }))).toBe("Riley Reviewer rejected the refund on ticket #12: “No photo yet.”.");
    expect(describeAuditEvent(event({ action: "ticket.assigned", actorType: "user", actorName: "Lee Lead", inputs: { assigneeId: "u-2", how: "assign" }, names }))).toBe("Lee Lead assigned ticket #12 to Sam Specialist.");
    expect(describeAuditEvent(event({ action: "refund.executed", actorType: "system", inputs: { amountCents: 7900, orderId: "ORD-1001", mode: "live" } }))).toBe("The system refunded 79.00 on order ORD-1001 (ticket #12).");
    expect(describeAuditEvent(event({ action: "run.stopped", actorType: "agent", inputs: { reason: "no_approved_evidence" } }))).toMatch(/^The agent stopped its run on ticket #12: no approved policy covers this ticket \(no_approved_evidence\)\.$/i);
  });

  it("has words for every action, and still names one it does not know", () => {
    for (const action of AUDIT_ACTIONS) expect(describeAuditEvent(event({ action })), action).not.toContain(`: ${action}`);
    expect(describeAuditEvent(event({ action: "something.new", actorType: "api" }))).toBe("The helpdesk (intake API): something.new.");
  });
});
