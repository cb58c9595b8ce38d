import { describe, expect, it } from "vitest";
import { approvalNotificationBody, type TNotificationFacts } from "./notify-approval";

const facts: TNotificationFacts = {
  event: "approval.expiring",
  approvalId: "0e2e0000-0000-4000-8000-0000000a0001",
  ticketId: "0e2e0000-0000-4000-8000-0000000b0001",
  ticketNumber: 1042,
  kind: "refund",
  refund: { amountCents: 125_005, currency: "USD" },
  requiredRole: "SPECIALIST",
  expiresAt: new Date("2026-11-26T12:34:56.789Z"),
};

describe("an approval notification's message", () => {
  it("says what waits, for whom, until when, and links the ticket, in Slack's text", () => {
    expect(approvalNotificationBody(facts, "https://cs.example.com").text).toBe(
      "Approval expiring soon: ticket #1042, a refund of 1,250.05 USD, needs a specialist's approval. It expires 2026-11-26 12:34 UTC. <https://cs.example.com/tickets/0e2e0000-0000-4000-8000-0000000b0001|Open ticket #1042>",
    );
  });

  it("names a reply when no refund waits, and escapes Slack's markup in the link", () => {
    const body = approvalNotificationBody(
      { ...facts, event: "approval.waiting", kind: "reply", refund: null, requiredRole: "REVIEWER" },
      "https://cs.example.com/a&b",
    );
    expect(body.text).toMatch(/^Approval waiting: ticket #1042, a reply to the customer, needs a reviewer's approval\./);
    expect(body.text).toContain("<https://cs.example.com/a&amp;b/tickets/");
    expect(body.countersign).not.toHaveProperty("refund");
    expect(body.countersign.ticket.url).toBe("https://cs.example.com/a&b/tickets/0e2e0000-0000-4000-8000-0000000b0001");
  });
});
