// The executor's outcomes, and its guarantees under concurrency. On PostgreSQL (DATABASE_URL set)
// the concurrent calls really race on separate connections; on PGlite they are serialised.
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { ticketId, user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { scriptedPlanner } from "../agent/planner";
import { runAgent } from "../agent/run-agent";
import { updatePolicySettings } from "../policy/update-settings";
import { executeApprovedRefund, type TExecutionOutcome } from "./execute-approved-refund";

const testDb = useTestDb();
beforeAll(async () => {
  await seedDemo(testDb().client);
  // These tests propose many refunds for one customer in a day; the per-customer limit is not under test.
  await updatePolicySettings({ changes: { "policy.customerRefundsPerDay": 100 }, actor: await user(testDb().client, "ADMIN") });
});

/** A run that proposes `amount` on the tablet order and stops at its approval. */
async function proposal(amount: number) {
  const { client } = testDb();
  const run = await runAgent({
    ticketId: await ticketId(client, "demo-cracked-tablet"),
    planner: scriptedPlanner([
      { action: "get_policy_evidence", args: { question: "refund for damaged electronics: cracked" } },
      { action: "lookup_order", args: { order_id: "ORD-1001" } },
      { action: "draft_reply", args: {} },
      { action: "propose_refund", args: { order_id: "ORD-1001", amount_cents: amount, reason: "partial refund for a cracked screen" } },
      { action: "request_human_approval", args: { reason: "review" } },
    ]),
  });
  expect(run.approval?.kind).toBe("refund");
  return client.approvalRequest.findUniqueOrThrow({ where: { id: run.approval!.id! } });
}

/** The decision recorded, then a crash before the executor ran: retries must finish the job. */
async function approvedButNotExecuted(request: { id: string; digest: string }) {
  const { client } = testDb();
  const reviewer = await user(client, "REVIEWER");
  await client.approvalDecision.create({ data: { approvalRequestId: request.id, decision: "approve", deciderId: reviewer.id, deciderRole: "REVIEWER", digest: request.digest } });
  await client.approvalRequest.update({ where: { id: request.id }, data: { status: "approved" } });
  return reviewer;
}

const count = (outcomes: TExecutionOutcome[], outcome: TExecutionOutcome) => outcomes.filter((o) => o === outcome).length;

describe("executeApprovedRefund", () => {
  it("refuses what was not approved", async () => {
    const request = await proposal(1000);
    const result = await executeApprovedRefund({ approvalId: request.id, actor: { type: "system", id: "test" } });
    expect(result).toMatchObject({ outcome: "blocked:not_approved", idempotencyKey: null });
    expect(await testDb().client.ledgerEntry.count()).toBe(0);
  });

  it("50 concurrent executions of one approval write one row; every other call is duplicate_ignored", async () => {
    const { client } = testDb();
    const request = await proposal(1500);
    const reviewer = await approvedButNotExecuted(request);
    const results = await Promise.all(Array.from({ length: 50 }, () => executeApprovedRefund({ approvalId: request.id, actor: { type: "user", id: reviewer.id } })));
    const outcomes = results.map((r) => r.outcome);
    expect(count(outcomes, "refund_created")).toBe(1);
    expect(count(outcomes, "duplicate_ignored")).toBe(49);
    expect(await client.ledgerEntry.count({ where: { approvalRequestId: request.id } })).toBe(1);
    expect(new Set(results.map((r) => r.idempotencyKey).filter(Boolean)).size).toBe(1);
  });

  it("simulate answers in the same shape and writes nothing", async () => {
    const { client } = testDb();
    const request = await proposal(500);
    await approvedButNotExecuted(request);
    const before = { ledger: await client.ledgerEntry.count(), audit: await client.auditEvent.count() };
    const simulated = await executeApprovedRefund({ approvalId: request.id, actor: { type: "system", id: "shadow" }, mode: "simulate" });
    expect(simulated).toMatchObject({ outcome: "refund_created", simulated: true, ledgerEntryId: null, amountCents: 500 });
    expect({ ledger: await client.ledgerEntry.count(), audit: await client.auditEvent.count() }).toEqual(before);
    const live = await executeApprovedRefund({ approvalId: request.id, actor: { type: "system", id: "test" } });
    expect(Object.keys(live).sort()).toEqual(Object.keys(simulated).sort());
  });

  it("concurrent approvals whose sum would exceed the order: the excess is blocked:exceeds_refundable", async () => {
    const { client } = testDb();
    const order = await client.order.findUniqueOrThrow({ where: { id: "ORD-1001" } });
    const refunded = (await client.ledgerEntry.aggregate({ where: { orderId: order.id }, _sum: { amountCents: true } }))._sum.amountCents ?? 0;
    const remaining = order.amountCents - refunded; // 7900 - 1500 - 500 = 5900
    const share = Math.floor(remaining / 2) - 10; // two fit, the third does not
    const requests = [await proposal(share), await proposal(share), await proposal(share)];
    for (const r of requests) await approvedButNotExecuted(r);
    const results = await Promise.all(requests.map((r) => executeApprovedRefund({ approvalId: r.id, actor: { type: "system", id: "test" } })));
    const outcomes = results.map((r) => r.outcome);
    expect(count(outcomes, "refund_created")).toBe(2);
    expect(count(outcomes, "blocked:exceeds_refundable")).toBe(1);
    const total = (await client.ledgerEntry.aggregate({ where: { orderId: order.id }, _sum: { amountCents: true } }))._sum.amountCents!;
    expect(total).toBeLessThanOrEqual(order.amountCents);
    expect(total).toBe(refunded + 2 * share);
  });

  it("refuses an expired approval and one whose proposal changed after approval", async () => {
    const { client } = testDb();
    const expired = await proposal(10);
    await approvedButNotExecuted(expired);
    const late = new Date(expired.expiresAt.getTime() + 1);
    expect((await executeApprovedRefund({ approvalId: expired.id, actor: { type: "system", id: "test" }, now: late })).outcome).toBe("blocked:approval_expired");

    const tampered = await proposal(10);
    await approvedButNotExecuted(tampered);
    await client.refundProposal.update({ where: { id: tampered.proposalId! }, data: { amountCents: 9999 } });
    expect((await executeApprovedRefund({ approvalId: tampered.id, actor: { type: "system", id: "test" } })).outcome).toBe("blocked:approval_mismatch");
    expect(await client.ledgerEntry.count({ where: { approvalRequestId: { in: [expired.id, tampered.id] } } })).toBe(0);
  });
});
