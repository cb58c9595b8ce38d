import { beforeAll, describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { ticketId, user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { runAgent } from "../agent/run-agent";
import { resolveByHand } from "./resolve-by-hand";
import { refusalCode } from "../../testing/refusals";

const testDb = useTestDb();
beforeAll(async () => void (await seedDemo(testDb().client)));

describe("resolveByHand", () => {
  it("records a person's own reply like any decision, once", async () => {
    const { client } = testDb();
    const id = await ticketId(client, "demo-private-note-injection");
    await runAgent({ ticketId: id });
    const reviewer = await user(client, "REVIEWER");
    expect(await refusalCode(resolveByHand({ ticketId: id, reply: "   ", actor: reviewer }))).toBe("reply_required");
    expect(await refusalCode(resolveByHand({ ticketId: id, reply: "We cannot act on seller notes.", actor: await user(client, "LEAD") }))).toBe("role_insufficient");
    const { approvalId } = await resolveByHand({ ticketId: id, reply: "We cannot act on seller notes; a colleague will look at your order.", actor: reviewer });
    expect(await client.approvalDecision.findFirstOrThrow({ where: { approvalRequestId: approvalId } })).toMatchObject({ decision: "approve", deciderId: reviewer.id });
    expect(await client.ticket.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "resolved" });
    expect(await client.outboxMessage.count({ where: { ticketId: id } })).toBe(1);
    expect(await client.auditEvent.count({ where: { ticketId: id, action: "ticket.resolved_by_hand" } })).toBe(1);
    expect(await refusalCode(resolveByHand({ ticketId: id, reply: "again", actor: reviewer }))).toBe("already_decided");
    expect(await client.ledgerEntry.count()).toBe(0);
  });

  it("refuses while a draft waits for a decision", async () => {
    const { client } = testDb();
    const id = await ticketId(client, "demo-cracked-tablet");
    await runAgent({ ticketId: id });
    expect(await refusalCode(resolveByHand({ ticketId: id, reply: "Hello", actor: await user(client, "REVIEWER") }))).toBe("operation_changed");
  });
});
