import { describe, expect, it } from "vitest";
import { slaOf } from "./queue-views";

const targets = { approvalHours: 4, handoffHours: 24 };
const arrived = new Date("2026-11-20T08:00:00.000Z");
const after = (hours: number) => new Date(arrived.getTime() + hours * 3_600_000);

describe("slaOf", () => {
  it("holds a ticket with a pending request to the approval target, whatever its status", () => {
    const t = { createdAt: arrived, status: "needs_human", pendingRole: "SPECIALIST" as const };
    expect(slaOf(t, targets, after(1))).toEqual({ kind: "approval", targetHours: 4, dueAt: after(4), state: "on_track" });
    expect(slaOf(t, targets, after(3.5))?.state).toBe("due_soon");
    expect(slaOf(t, targets, after(4))?.state).toBe("due_soon");
    expect(slaOf(t, targets, after(4.01))?.state).toBe("overdue");
  });

  it("holds a handed-off, blocked or bypassed ticket with nothing to approve to the hand-off target", () => {
    for (const status of ["needs_human", "blocked", "bypassed"]) {
      expect(slaOf({ createdAt: arrived, status, pendingRole: null }, targets, after(5))).toEqual({
        kind: "handoff",
        targetHours: 24,
        dueAt: after(24),
        state: "on_track",
      });
    }
    expect(slaOf({ createdAt: arrived, status: "blocked", pendingRole: null }, targets, after(25))?.state).toBe("overdue");
  });

  it("holds new, running, settled and resolved tickets to none", () => {
    for (const status of ["open", "running", "approved", "auto_approved", "completed", "resolved"]) {
      expect(slaOf({ createdAt: arrived, status, pendingRole: null }, targets, after(100))).toBeNull();
    }
  });
});
