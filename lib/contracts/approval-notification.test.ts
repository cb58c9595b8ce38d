import { describe, expect, it } from "vitest";
import { APPROVAL_NOTIFICATIONS, isApprovalNotification, notificationJobId, notificationWebhookId } from "./approval-notification";

const A = "0e2e0000-0000-4000-8000-0000000a0001";
const B = "0e2e0000-0000-4000-8000-0000000a0002";

describe("the ids of an approval notification", () => {
  it("are the same for every attempt and duplicate of one event, and differ between events and requests", () => {
    expect(notificationWebhookId("approval.waiting", A)).toBe(`approval.waiting.${A}`);
    expect(notificationJobId("approval.waiting", A)).toBe(notificationJobId("approval.waiting", A));
    const ids = new Set([notificationJobId("approval.waiting", A), notificationJobId("approval.expiring", A), notificationJobId("approval.waiting", B), notificationJobId("approval.expiring", B)]);
    expect(ids.size).toBe(4);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("name only the events there are", () => {
    for (const event of Object.values(APPROVAL_NOTIFICATIONS)) expect(isApprovalNotification(event)).toBe(true);
    for (const other of ["approval.decided", "", null, 1]) expect(isApprovalNotification(other)).toBe(false);
  });
});
