import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { approvalFor, freshOrder, tabletTicket, ticketFrom, ticketId, user } from "../../testing/runs";
import { receiveFollowUp } from "../conversations/receive-follow-up";
import { customerReply } from "../contracts/customer-reply";
import { seedDemo } from "../../prisma/seed/demo";
import { runAgent } from "../agent/run-agent";
import { resolveByHand } from "./resolve-by-hand";
import { refusalCode } from "../../testing/refusals";

const testDb = useTestDb(seedDemo);

describe("resolveByHand", () => {
  it("records a person's own reply like any decision, once", async () => {
    const { client } = testDb();
    const id = await ticketId(client, "demo-private-note-injection");
    await runAgent({ ticketId: id });
    const reviewer = await user(client, "REVIEWER");
    expect(await refusalCode(resolveByHand({ ticketId: id, reply: "   ", actor: reviewer }))).toBe("reply_required");
    expect(
      await refusalCode(resolveByHand({ ticketId: id, reply: "We cannot act on seller notes.", actor: await user(client, "LEAD") })),
    ).toBe("role_insufficient");
    const { approvalId } = await resolveByHand({
      ticketId: id,
      reply: "We cannot act on seller notes; a colleague will look at your order.",
      actor: reviewer,
    });
    expect(await client.approvalDecision.findFirstOrThrow({ where: { approvalRequestId: approvalId } })).toMatchObject({
      decision: "approve",
      deciderId: reviewer.id,
    });
    expect(await client.ticket.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "resolved" });
    expect(await client.outboxMessage.count({ where: { ticketId: id } })).toBe(1);
    expect(await client.auditEvent.count({ where: { ticketId: id, action: "ticket.resolved_by_hand" } })).toBe(1);
    expect(await refusalCode(resolveByHand({ ticketId: id, reply: "again", actor: reviewer }))).toBe("already_decided");
    expect(await client.ledgerEntry.count()).toBe(0);
  });

  it("sends the customer the reply without citation tokens, whatever the person typed, and refuses one that is only citations", async () => {
    const { client } = testDb();
    const world = await freshOrder(client);
    const id = await tabletTicket(client, world);
    const reviewer = await user(client, "REVIEWER");
    // Only citations: nothing would reach the customer, so nothing is written.
    expect(await refusalCode(resolveByHand({ ticketId: id, reply: " [support-sla@1]\r\n[return-policy-us@2] ", actor: reviewer }))).toBe(
      "reply_required",
    );
    expect(await client.approvalRequest.count({ where: { ticketId: id } })).toBe(0);
    expect(await client.auditEvent.count({ where: { ticketId: id, action: "ticket.resolved_by_hand" } })).toBe(0);

    const typed =
      "Hi,\r\nWe answer every ticket within one business day [support-sla@1] .\r\nDamaged items may be returned [return-policy-us@2][return-policy-us@2].";
    const { approvalId } = await resolveByHand({ ticketId: id, reply: typed, actor: reviewer });
    const sent = await client.outboxMessage.findFirstOrThrow({ where: { ticketId: id } });
    expect(sent.body).toBe(customerReply(typed));
    expect(sent.body).not.toMatch(/\[[a-z0-9-]+@\d+\]/);
    expect(sent.body).toContain("We answer every ticket within one business day.");
    // The digest the decision is bound to covers that same text.
    const request = await client.approvalRequest.findUniqueOrThrow({ where: { id: approvalId } });
    expect((request.operation as { customerText: string }).customerText).toBe(sent.body);
  });

  it("refuses a hand reply that promises a refund (a hand reply makes none), naming the sentence", async () => {
    const { client } = testDb();
    // A ticket nobody ran the agent on: nothing waits for a decision, and nothing is refunded.
    const id = await tabletTicket(client, await freshOrder(client));
    await expect(
      resolveByHand({ ticketId: id, reply: "Sorry for the trouble. We have refunded 79.00 USD.", actor: await user(client, "REVIEWER") }),
    ).rejects.toMatchObject({
      code: "reply_contradicts_operation",
      field: "reply",
      message:
        "The reply promises a refund, but none is being made: “We have refunded 79.00 USD.” Take the promise out, or say what happens instead.",
    });
    expect(await client.outboxMessage.count({ where: { ticketId: id } })).toBe(0);
    expect(await client.ticket.findUniqueOrThrow({ where: { id } })).not.toMatchObject({ status: "resolved" });
  });

  it("refuses while a draft waits for a decision", async () => {
    const { client } = testDb();
    const id = await ticketId(client, "demo-cracked-tablet");
    await runAgent({ ticketId: id });
    expect(await refusalCode(resolveByHand({ ticketId: id, reply: "Hello", actor: await user(client, "REVIEWER") }))).toBe(
      "operation_changed",
    );
  });

  it("carries the AI disclosure only when it started from the agent's draft", async () => {
    const { client } = testDb();
    const reviewer = await user(client, "REVIEWER");
    const question = { subject: "How long does a refund take?", body: "If my refund is approved, how long until I see the money?" };
    const previous = process.env.REPLY_DISCLOSURE;
    process.env.REPLY_DISCLOSURE = "true";
    delete (globalThis as { __countersignEnv?: unknown }).__countersignEnv;
    try {
      // No run drafted anything: the person wrote it from nothing.
      const own = await ticketFrom(client, await freshOrder(client), question);
      await resolveByHand({ ticketId: own, reply: "About five business days after approval.", actor: reviewer });
      // The run's draft waited, the customer wrote again (the request is set aside): the form starts from that draft.
      const drafted = await ticketFrom(client, await freshOrder(client), question);
      expect((await approvalFor(client, drafted)).draft).toBeTruthy();
      await receiveFollowUp({ ticket: { id: drafted }, messageId: "m-1", body: "Any news?", channel: "api", client });
      // Edited by the person (its refund promise taken out): still the agent's draft.
      await resolveByHand({ ticketId: drafted, reply: "Thanks for waiting: a colleague will write to you today.", actor: reviewer });

      const sent = (id: string) => client.outboxMessage.findFirstOrThrow({ where: { ticketId: id }, include: { delivery: true } });
      const [byHand, fromDraft] = [await sent(own), await sent(drafted)];
      expect(byHand.delivery).toMatchObject({ disclosed: false });
      expect(byHand.body).not.toContain("automated assistant");
      expect(fromDraft.delivery).toMatchObject({ disclosed: true });
      expect(fromDraft.body).toMatch(/drafted with the help of an automated assistant and reviewed by our support team\.$/);
    } finally {
      if (previous === undefined) delete process.env.REPLY_DISCLOSURE;
      else process.env.REPLY_DISCLOSURE = previous;
      delete (globalThis as { __countersignEnv?: unknown }).__countersignEnv;
    }
  });
});
