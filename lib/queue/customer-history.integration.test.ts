// Context beside the decision: a second ticket about an order refunded on an earlier ticket shows that
// refund, what remains refundable, and the earlier ticket with how it was decided – found by the
// order even when the customer wrote from another address; another customer's tickets never appear.
import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { approvalFor, freshOrder, tabletTicket, user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { scriptedPlanner } from "../agent/planner";
import { runAgent } from "../agent/run-agent";
import { orderFacts } from "../agent/tools";
import { Prisma } from "../db";
import { refundedCentsSql, stillRefundableCents } from "../orders/refund-facts";
import { decideApproval } from "../approvals/decide-approval";
import { settleApprovedRefund } from "../approvals/settle-refund";
import { createTicket } from "../intake/create-ticket";
import { loadCustomerHistory } from "./load-customer-history";
import { loadTicketDetail } from "./load-ticket-detail";

const testDb = useTestDb(seedDemo);

async function historyOf(ticketId: string) {
  const detail = (await loadTicketDetail({ ticketId, client: testDb().client }))!;
  return loadCustomerHistory({ ticket: detail.ticket, order: detail.order, client: testDb().client });
}

describe("the customer's history beside the decision", () => {
  it("shows the refund already made on the order, what remains, and the earlier ticket's decision", async () => {
    const client = testDb().client;
    const world = await freshOrder(client);
    const first = await tabletTicket(client, world);
    const approval = await approvalFor(client, first);
    const specialist = await user(client, "SPECIALIST");
    await decideApproval({ approvalId: approval.id, decision: "approve", digest: approval.digest, note: null, actor: specialist, client });
    expect((await settleApprovedRefund({ approvalId: approval.id, client })).outcome).toBe("refund_created");

    // The same order, written from another address.
    const second = await tabletTicket(client, { email: "someone-else@example.org", orderId: world.orderId });
    // The same customer's address, about nothing in particular.
    const third = (
      await client.$transaction((tx) =>
        createTicket(
          { subject: "Question", body: "Do you ship to Canada?", customerEmail: world.email.toUpperCase(), orderRef: null, source: "form" },
          { type: "system" },
          tx,
        ),
      )
    ).id;
    // Someone else entirely.
    const stranger = await freshOrder(client);
    await tabletTicket(client, stranger);

    const history = await historyOf(second);
    expect(history.order).toMatchObject({ id: world.orderId, amountCents: 7900, refundedCents: 7900, remainingCents: 0 });
    const firstNumber = (await client.ticket.findUniqueOrThrow({ where: { id: first } })).number;
    expect(history.order!.refunds).toEqual([expect.objectContaining({ amountCents: 7900, ticketNumber: firstNumber })]);
    expect(history.earlier.map((t) => t.id)).toEqual([third, first]);
    expect(history.earlierCount).toBe(2);
    expect(history.earlier[1]!.outcome).toMatchObject({
      kind: "refund",
      status: "approved",
      amountCents: 7900,
      decidedBy: expect.any(String),
      automatic: false,
    });
    expect(history.earlier[0]!.outcome).toBeNull();

    // From the first ticket, the later ones are its history too; the stranger's never.
    expect((await historyOf(first)).earlier.map((t) => t.id).sort()).toEqual([second, third].sort());
  });

  it("says the customer has no earlier ticket and nothing refunded on a fresh order", async () => {
    const client = testDb().client;
    const world = await freshOrder(client, 12_000);
    const only = await tabletTicket(client, world);
    const history = await historyOf(only);
    expect(history).toEqual({
      earlier: [],
      earlierCount: 0,
      order: { id: world.orderId, amountCents: 12_000, currency: "USD", refundedCents: 0, remainingCents: 12_000, refunds: [] },
    });
  });

  it("agrees with the refund facts on an order partly refunded: what was refunded and what remains", async () => {
    const client = testDb().client;
    const world = await freshOrder(client);
    const ticket = await tabletTicket(client, world);
    const run = await runAgent({
      ticketId: ticket,
      client,
      planner: scriptedPlanner([
        { action: "get_policy_evidence", args: { question: "refund for damaged electronics: cracked" } },
        { action: "lookup_order", args: { order_id: world.orderId } },
        { action: "draft_reply", args: {} },
        { action: "propose_refund", args: { order_id: world.orderId, amount_cents: 3_000, reason: "partial refund for a cracked screen" } },
        { action: "request_human_approval", args: { reason: "review" } },
      ]),
    });
    const approval = await client.approvalRequest.findUniqueOrThrow({ where: { id: run.approval!.id! } });
    const specialist = await user(client, "SPECIALIST");
    // The draft was written before the partial amount was proposed, and says the full one: the reply
    // an approval sends must state the refund being made, so the specialist corrects it.
    await decideApproval({
      approvalId: approval.id,
      decision: "approve",
      digest: approval.digest,
      note: null,
      editedReply: "We have refunded 30.00 USD for the cracked screen.",
      actor: specialist,
      client,
    });
    expect((await settleApprovedRefund({ approvalId: approval.id, client })).outcome).toBe("refund_created");

    const history = await historyOf(ticket);
    const [facts] = await client.$queryRaw<
      { refunded: string }[]
    >`SELECT ${refundedCentsSql(Prisma.sql`${world.orderId}`)}::text AS refunded`;
    const refunded = Number(facts!.refunded);
    expect(history.order).toMatchObject({
      refundedCents: refunded,
      remainingCents: stillRefundableCents({ amountCents: 7_900 }, refunded),
    });
    // The agent's lookup_order reads the same facts; and they are the partial refund, not the order.
    expect(await orderFacts(client, world.orderId)).toMatchObject({
      refundedCents: history.order!.refundedCents,
      refundableCents: history.order!.remainingCents,
    });
    expect(history.order).toMatchObject({
      refundedCents: 3_000,
      remainingCents: 4_900,
      refunds: [expect.objectContaining({ amountCents: 3_000 })],
    });
  });
});
