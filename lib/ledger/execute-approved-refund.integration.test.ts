// The executor's outcomes, and its guarantees under concurrency. On PostgreSQL (DATABASE_URL set)
// the concurrent calls really race on separate connections; on PGlite they are serialised.
import { createPublicKey, generateKeyPairSync } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { asOwner, useTestDb } from "../../testing/db";
import { approvalFor, freshOrder, tabletTicket, ticketId, user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { scriptedPlanner } from "../agent/planner";
import { runAgent } from "../agent/run-agent";
import { updatePolicySettings } from "../policy/update-settings";
import { approvalDigest, type TApprovalOperation } from "../contracts/approval-operation";
import { executeApprovedRefund, refundIdempotencyKey } from "./execute-approved-refund";
import type { TExecutionOutcome } from "../contracts/reason-codes";
import { insertSignedDecision, signedDecision } from "../../testing/decisions";
import { keyIdOf } from "../audit/checkpoint";

const testDb = useTestDb(seedDemo);
beforeAll(async () => {
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
async function approvedButNotExecuted(request: { id: string; digest: string }, decidedAt?: Date) {
  const { client } = testDb();
  const reviewer = await user(client, "REVIEWER");
  await insertSignedDecision(client, {
    approvalRequestId: request.id,
    deciderId: reviewer.id,
    deciderRole: "REVIEWER",
    digest: request.digest,
    ...(decidedAt ? { createdAt: decidedAt } : {}),
  });
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
    const results = await Promise.all(
      Array.from({ length: 50 }, () => executeApprovedRefund({ approvalId: request.id, actor: { type: "user", id: reviewer.id } })),
    );
    const outcomes = results.map((r) => r.outcome);
    expect(count(outcomes, "refund_created")).toBe(1);
    expect(count(outcomes, "duplicate_ignored")).toBe(49);
    expect(await client.ledgerEntry.count({ where: { approvalRequestId: request.id } })).toBe(1);
    expect(new Set(results.map((r) => r.idempotencyKey).filter(Boolean)).size).toBe(1);
    // Every call is audited, the retries as what they were.
    expect(await client.auditEvent.count({ where: { subjectId: request.id, action: "refund.duplicate_ignored" } })).toBe(49);
    const created = results.find((r) => r.outcome === "refund_created")!;
    expect(results.find((r) => r.outcome === "duplicate_ignored")).toMatchObject({
      ledgerEntryId: created.ledgerEntryId,
      idempotencyKey: created.idempotencyKey,
      amountCents: 1500,
      orderId: "ORD-1001",
      detail: "this approved operation was already executed",
    });
  });

  it("simulate answers in the same shape and writes nothing", async () => {
    const { client } = testDb();
    const request = await proposal(500);
    await approvedButNotExecuted(request);
    const before = { ledger: await client.ledgerEntry.count(), audit: await client.auditEvent.count() };
    const simulated = await executeApprovedRefund({ approvalId: request.id, actor: { type: "system", id: "shadow" }, mode: "simulate" });
    expect(simulated).toMatchObject({
      outcome: "refund_created",
      simulated: true,
      ledgerEntryId: null,
      amountCents: 500,
      detail: "simulated: no ledger row written",
    });
    expect({ ledger: await client.ledgerEntry.count(), audit: await client.auditEvent.count() }).toEqual(before);
    const live = await executeApprovedRefund({ approvalId: request.id, actor: { type: "system", id: "test" } });
    expect(Object.keys(live).sort()).toEqual(Object.keys(simulated).sort());
  });

  it("concurrent approvals whose sum would exceed the order: the excess is blocked:exceeds_refundable", async () => {
    const { client } = testDb();
    const order = await client.order.findUniqueOrThrow({ where: { id: "ORD-1001" } });
    const refunded =
      (await client.ledgerEntry.aggregate({ where: { orderId: order.id }, _sum: { amountCents: true } }))._sum.amountCents ?? 0;
    const remaining = order.amountCents - refunded; // 7900 - 1500 - 500 = 5900
    const share = Math.floor(remaining / 2) - 10; // two fit, the third does not
    const requests = [await proposal(share), await proposal(share), await proposal(share)];
    for (const r of requests) await approvedButNotExecuted(r);
    const results = await Promise.all(
      requests.map((r) => executeApprovedRefund({ approvalId: r.id, actor: { type: "system", id: "test" } })),
    );
    const outcomes = results.map((r) => r.outcome);
    expect(count(outcomes, "refund_created")).toBe(2);
    expect(count(outcomes, "blocked:exceeds_refundable")).toBe(1);
    const total = (await client.ledgerEntry.aggregate({ where: { orderId: order.id }, _sum: { amountCents: true } }))._sum.amountCents!;
    expect(total).toBeLessThanOrEqual(order.amountCents);
    expect(total).toBe(refunded + 2 * share);
    expect(results.find((r) => r.outcome === "blocked:exceeds_refundable")).toMatchObject({
      amountCents: share,
      ledgerEntryId: null,
      detail: `${total} of ${order.amountCents} cents already refunded`,
    });
  });

  it("refuses an approval decided after it expired, and one whose proposal changed after approval", async () => {
    const { client } = testDb();
    const expired = await proposal(10);
    await approvedButNotExecuted(expired, new Date(expired.expiresAt.getTime() + 1));
    expect((await executeApprovedRefund({ approvalId: expired.id, actor: { type: "system", id: "test" } })).outcome).toBe(
      "blocked:approval_expired",
    );

    const tampered = await proposal(10);
    await approvedButNotExecuted(tampered);
    await client.refundProposal.update({ where: { id: tampered.proposalId! }, data: { amountCents: 9999 } });
    expect((await executeApprovedRefund({ approvalId: tampered.id, actor: { type: "system", id: "test" } })).outcome).toBe(
      "blocked:approval_mismatch",
    );
    expect(await client.ledgerEntry.count({ where: { approvalRequestId: { in: [expired.id, tampered.id] } } })).toBe(0);
  });
});

/** A fresh order's full refund, proposed by the rule planner and waiting for its decision. */
async function freshRequest() {
  const { client } = testDb();
  const world = await freshOrder(client);
  return approvalFor(client, await tabletTicket(client, world));
}

type TDecisionFields = {
  decision?: "approve" | "reject";
  deciderRole?: "REVIEWER" | "SPECIALIST" | "LEAD" | "ADMIN";
  digest?: string;
  createdAt?: Date;
  automatic?: boolean;
  status?: "approved" | "pending" | "rejected";
};

/** Records a decision as the database would hold it, each field as a test needs it to be. */
async function decided(
  request: { id: string; digest: string; requiredRole: "REVIEWER" | "SPECIALIST" | "LEAD" | "ADMIN" },
  fields: TDecisionFields = {},
) {
  const { client } = testDb();
  const role = fields.deciderRole ?? request.requiredRole;
  const decider = fields.automatic ? null : await user(client, role);
  await insertSignedDecision(client, {
    approvalRequestId: request.id,
    decision: fields.decision ?? "approve",
    deciderId: decider?.id ?? null,
    deciderRole: role,
    automatic: fields.automatic ?? false,
    digest: fields.digest ?? request.digest,
    ...(fields.createdAt ? { createdAt: fields.createdAt } : {}),
  });
  await client.approvalRequest.update({ where: { id: request.id }, data: { status: fields.status ?? "approved" } });
}

const execute = (approvalId: string) => executeApprovedRefund({ approvalId, actor: { type: "system", id: "test" } });

/** Runs the executor and answers its outcome and why, with the ledger rows it left for the approval. */
async function outcomeOf(approvalId: string) {
  const result = await execute(approvalId);
  return {
    outcome: result.outcome,
    detail: result.detail,
    rows: await testDb().client.ledgerEntry.count({ where: { approvalRequestId: approvalId } }),
  };
}

/** The audit event the executor left for an approval's last execution. */
async function lastEvent(approvalId: string) {
  return testDb().client.auditEvent.findFirstOrThrow({
    where: { subjectType: "approval", subjectId: approvalId, action: { startsWith: "refund." } },
    orderBy: { seq: "desc" },
  });
}

// Each check is taken alone: everything else about the approval is as it would be when executed, so
// a check removed from the executor lets a ledger row through and the test fails.
describe("the executor's own checks", () => {
  it("writes the refund when nothing stands in the way (the baseline of the cases below)", async () => {
    const { client } = testDb();
    const request = await freshRequest();
    await decided(request);
    const result = await execute(request.id);
    const [row, ...more] = await client.ledgerEntry.findMany({ where: { approvalRequestId: request.id } });
    expect(more).toEqual([]);
    expect(result).toEqual({
      outcome: "refund_created",
      idempotencyKey: refundIdempotencyKey(request.id, request.digest),
      ledgerEntryId: row!.id,
      amountCents: 7900,
      orderId: row!.orderId,
      simulated: false,
      detail: "refund written to the ledger",
    });
    expect(result.idempotencyKey).toMatch(/^refund:[0-9a-f]{64}$/);
    expect(row).toMatchObject({
      idempotencyKey: result.idempotencyKey,
      amountCents: 7900,
      currency: "USD",
      kind: "refund",
      actorType: "system",
      actorId: "test",
    });
    // One event, written with the row: what was refunded, under which key.
    expect(await lastEvent(request.id)).toMatchObject({
      action: "refund.executed",
      actorType: "system",
      actorId: "test",
      ticketId: request.ticketId,
      idempotencyKey: result.idempotencyKey,
      inputs: { mode: "live", orderId: row!.orderId, amountCents: 7900, detail: "refund written to the ledger" },
    });
  });

  it("refuses an approval that does not exist, and fails loudly on an id that cannot be one", async () => {
    const { client } = testDb();
    const missing = "00000000-0000-4000-8000-000000000000";
    expect(await outcomeOf(missing)).toEqual({ outcome: "blocked:not_approved", detail: "no approval request for a refund", rows: 0 });
    expect(await lastEvent(missing)).toMatchObject({ action: "refund.blocked_not_approved", ticketId: null });
    // Not a refusal to audit, nor a duplicate: an error the job queue retries and reports.
    const before = await client.auditEvent.count();
    await expect(execute("not-an-approval")).rejects.toThrow();
    expect(await client.auditEvent.count()).toBe(before);
  });

  it("executes an approval decided before its expiry, though the worker gets to it after: decided in time means executed", async () => {
    const { client } = testDb();
    const request = await freshRequest();
    // Approved 25 s before its expiry; the worker was down, and runs a minute after the expiry.
    const expiresAt = new Date(Date.now() - 60_000);
    await client.approvalRequest.update({ where: { id: request.id }, data: { expiresAt } });
    await decided(request, { createdAt: new Date(expiresAt.getTime() - 25_000) });
    expect(await outcomeOf(request.id)).toEqual({ outcome: "refund_created", detail: "refund written to the ledger", rows: 1 });
  });

  it("executes an approval decided at the very moment it expires", async () => {
    const request = await freshRequest();
    await decided(request, { createdAt: request.expiresAt });
    expect(await outcomeOf(request.id)).toEqual({
      outcome: "refund_created",
      detail: "refund written to the ledger",
      rows: 1,
    });
  });

  it("refuses an approved operation that carries no refund at all", async () => {
    const { client } = testDb();
    const request = await freshRequest();
    const operation = { ...(request.operation as unknown as TApprovalOperation), proposal: null };
    const digest = approvalDigest(operation);
    await client.approvalRequest.update({ where: { id: request.id }, data: { operation, digest } });
    await decided({ ...request, digest });
    expect(await outcomeOf(request.id)).toEqual({
      outcome: "blocked:approval_mismatch",
      detail: "the proposal no longer matches what was approved",
      rows: 0,
    });
  });

  it("simulates a refund of the whole order: it would fit, and nothing is written", async () => {
    const { client } = testDb();
    const request = await freshRequest();
    await decided(request);
    const events = await client.auditEvent.count();
    const result = await executeApprovedRefund({ approvalId: request.id, actor: { type: "system", id: "shadow" }, mode: "simulate" });
    expect(result).toMatchObject({
      outcome: "refund_created",
      detail: "simulated: no ledger row written",
      simulated: true,
      amountCents: 7900,
      ledgerEntryId: null,
      idempotencyKey: refundIdempotencyKey(request.id, request.digest),
    });
    expect({
      rows: await client.ledgerEntry.count({ where: { approvalRequestId: request.id } }),
      events: await client.auditEvent.count(),
    }).toEqual({ rows: 0, events });
  });

  it("refuses a rejected decision, and an approval whose request is not marked approved", async () => {
    const rejected = await freshRequest();
    await decided(rejected, { decision: "reject" });
    expect(await outcomeOf(rejected.id)).toEqual({ outcome: "blocked:not_approved", detail: "the request has not been approved", rows: 0 });
    // The refusal is audited, on the approval's ticket, with nothing it could not know.
    expect(await lastEvent(rejected.id)).toMatchObject({
      action: "refund.blocked_not_approved",
      ticketId: rejected.ticketId,
      idempotencyKey: null,
      inputs: { mode: "live", orderId: null, amountCents: null, detail: "the request has not been approved" },
    });
    const unmarked = await freshRequest();
    await decided(unmarked, { status: "pending" });
    expect(await outcomeOf(unmarked.id)).toEqual({ outcome: "blocked:not_approved", detail: "the request has not been approved", rows: 0 });
  });

  it("refuses a reply-only request even if it points at a proposal, and a refund request with none", async () => {
    const { client } = testDb();
    const reply = await freshRequest();
    await client.approvalRequest.update({ where: { id: reply.id }, data: { kind: "reply" } });
    await decided(reply);
    expect(await outcomeOf(reply.id)).toEqual({ outcome: "blocked:not_approved", detail: "no approval request for a refund", rows: 0 });
    const orphan = await freshRequest();
    await client.approvalRequest.update({ where: { id: orphan.id }, data: { proposalId: null } });
    await decided(orphan);
    expect(await outcomeOf(orphan.id)).toEqual({ outcome: "blocked:not_approved", detail: "no approval request for a refund", rows: 0 });
  });

  it("refuses a decider below the required role, and a system approval of what the policy did not auto-approve", async () => {
    const { client } = testDb();
    const below = await freshRequest();
    expect(below.requiredRole).toBe("REVIEWER");
    await client.approvalRequest.update({ where: { id: below.id }, data: { requiredRole: "SPECIALIST" } });
    await decided({ ...below, requiredRole: "SPECIALIST" }, { deciderRole: "REVIEWER" });
    expect(await outcomeOf(below.id)).toEqual({
      outcome: "blocked:not_approved",
      detail: "approved by a REVIEWER, needs SPECIALIST",
      rows: 0,
    });

    const lead = await freshRequest();
    await decided(lead, { deciderRole: "LEAD" });
    expect(await outcomeOf(lead.id)).toEqual({ outcome: "blocked:not_approved", detail: "approved by a LEAD, needs REVIEWER", rows: 0 });

    const needsHuman = await freshRequest();
    expect((await client.refundProposal.findUniqueOrThrow({ where: { id: needsHuman.proposalId! } })).decision).toBe("needs_human");
    await decided(needsHuman, { automatic: true });
    expect(await outcomeOf(needsHuman.id)).toEqual({
      outcome: "blocked:not_approved",
      detail: "a system approval covers only a live refund the policy auto-approved",
      rows: 0,
    });

    const simulated = await freshRequest();
    await client.refundProposal.update({ where: { id: simulated.proposalId! }, data: { decision: "auto_approved", simulated: true } });
    await decided(simulated, { automatic: true });
    expect(await outcomeOf(simulated.id)).toEqual({
      outcome: "blocked:not_approved",
      detail: "a system approval covers only a live refund the policy auto-approved",
      rows: 0,
    });

    const automatic = await freshRequest();
    await client.refundProposal.update({ where: { id: automatic.proposalId! }, data: { decision: "auto_approved" } });
    await decided(automatic, { automatic: true });
    expect(await outcomeOf(automatic.id)).toMatchObject({ outcome: "refund_created", rows: 1 });
  });

  it("refuses an operation that no longer has its digest, and a decision taken on another digest", async () => {
    const { client } = testDb();
    // The stored operation and its proposal changed together: only the digest shows it.
    const rewritten = await freshRequest();
    const operation = rewritten.operation as unknown as TApprovalOperation;
    const changed = { ...operation, proposal: { ...operation.proposal!, reason: "a reason nobody approved" } };
    expect(approvalDigest(changed)).not.toBe(rewritten.digest);
    await client.approvalRequest.update({ where: { id: rewritten.id }, data: { operation: changed } });
    await client.refundProposal.update({ where: { id: rewritten.proposalId! }, data: { reason: "a reason nobody approved" } });
    await decided(rewritten);
    expect(await outcomeOf(rewritten.id)).toEqual({
      outcome: "blocked:approval_mismatch",
      detail: "the proposal no longer matches what was approved",
      rows: 0,
    });

    // A decision on another digest: the database refuses to hold it; written past its trigger (as
    // someone holding the database could), the executor still refuses it.
    const otherDigest = await freshRequest();
    await expect(decided(otherDigest, { digest: "0".repeat(64) })).rejects.toThrow(/bound to its request's digest/);
    const person = await user(client, otherDigest.requiredRole);
    // Signed by the app (the key is not what this case is about): only the digest is wrong.
    const onOtherDigest = await signedDecision(client, {
      approvalRequestId: otherDigest.id,
      deciderId: person.id,
      deciderRole: otherDigest.requiredRole,
      digest: "0".repeat(64),
    });
    await asOwner(testDb(), (owner) =>
      owner.$transaction(async (tx) => {
        await tx.$executeRawUnsafe("SET LOCAL session_replication_role = replica");
        await tx.approvalDecision.create({ data: onOtherDigest });
        await tx.approvalRequest.update({ where: { id: otherDigest.id }, data: { status: "approved" } });
      }),
    );
    expect(await outcomeOf(otherDigest.id)).toEqual({
      outcome: "blocked:approval_mismatch",
      detail: "the proposal no longer matches what was approved",
      rows: 0,
    });
  });

  it.each([
    ["order", { orderId: "ORD-1002" }],
    ["currency", { currency: "EUR" }],
    ["reason", { reason: "changed after the approval" }],
  ] as const)("refuses a proposal whose %s drifted from the approved operation", async (field, drift) => {
    const { client } = testDb();
    const request = await freshRequest();
    const proposal = await client.refundProposal.update({ where: { id: request.proposalId! }, data: drift });
    // The order follows a drifted currency, so only the approved operation can tell.
    if (field === "currency") await client.order.update({ where: { id: proposal.orderId }, data: { currency: "EUR" } });
    await decided(request);
    expect(await outcomeOf(request.id)).toEqual({
      outcome: "blocked:approval_mismatch",
      detail: "the proposal no longer matches what was approved",
      rows: 0,
    });
  });

  it("refuses a decision made after the request expired, whenever it is executed", async () => {
    const request = await freshRequest();
    await decided(request, { createdAt: new Date(request.expiresAt.getTime() + 1_000) });
    expect(await outcomeOf(request.id)).toEqual({
      outcome: "blocked:approval_expired",
      detail: `the approval expired at ${request.expiresAt.toISOString()}`,
      rows: 0,
    });
    // The same approval decided in time is executed at the same moment.
    const inTime = await freshRequest();
    await decided(inTime, { createdAt: new Date(inTime.expiresAt.getTime() - 2_000) });
    expect(await outcomeOf(inTime.id)).toMatchObject({ outcome: "refund_created", rows: 1 });
  });

  it("refuses a refund in another currency than its order's, though the operation is unchanged", async () => {
    const { client } = testDb();
    const request = await freshRequest();
    const proposal = await client.refundProposal.findUniqueOrThrow({ where: { id: request.proposalId! } });
    await client.order.update({ where: { id: proposal.orderId }, data: { currency: "EUR" } });
    await decided(request);
    const result = await execute(request.id);
    expect(result).toMatchObject({
      outcome: "blocked:approval_mismatch",
      detail: "currency differs from the order's",
      ledgerEntryId: null,
    });
    expect(await client.ledgerEntry.count({ where: { approvalRequestId: request.id } })).toBe(0);
  });
});

// A decision is the app's only with the app's signature over it: a row with any other signature, or
// whose signed fields are not the stored ones, is no approval, whatever else it says.
describe("the decisions' signatures", () => {
  const badSignature = (why: string) => ({
    outcome: "blocked:not_approved",
    detail: `the decision in seat 1 has a bad signature: ${why}`,
    rows: 0,
  });

  it("executes a genuine decision, and refuses one signed with another key, under its own id or the app's", async () => {
    const { client } = testDb();
    const genuine = await freshRequest();
    await decided(genuine);
    expect(await outcomeOf(genuine.id)).toMatchObject({ outcome: "refund_created", rows: 1 });

    const { privateKey } = generateKeyPairSync("ed25519");
    const publicKey = createPublicKey(privateKey);
    const other = { privateKey, publicKey, publicKeyPem: "", keyId: keyIdOf(publicKey) };
    const specialist = await user(client, "SPECIALIST");
    const foreign = await freshRequest();
    const fields = { approvalRequestId: foreign.id, deciderId: specialist.id, deciderRole: "SPECIALIST" as const, digest: foreign.digest };
    await insertSignedDecision(client, fields, other);
    await client.approvalRequest.update({ where: { id: foreign.id }, data: { status: "approved" } });
    expect(await outcomeOf(foreign.id)).toEqual(badSignature(`its signature is by key ${other.keyId}, not a known key`));
    expect((await lastEvent(foreign.id)).inputs).toMatchObject({ detail: expect.stringContaining("bad signature") });

    // The same foreign signature under the app's key id: it does not verify.
    const posing = await freshRequest();
    const own = (await signedDecision(client, { ...fields, approvalRequestId: posing.id, digest: posing.digest })).keyId;
    const row = await signedDecision(client, { ...fields, approvalRequestId: posing.id, digest: posing.digest }, other);
    await client.approvalDecision.create({ data: { ...row, keyId: own } });
    await client.approvalRequest.update({ where: { id: posing.id }, data: { status: "approved" } });
    expect(await outcomeOf(posing.id)).toEqual(badSignature("its signature does not verify"));
  });

  it.each([
    ["the decider", async (f: TSigned) => ({ ...f, deciderId: (await user(testDb().client, "ADMIN")).id, deciderRole: "ADMIN" as const })],
    ["the digest", async (f: TSigned) => ({ ...f, digest: "f".repeat(64) })],
    ["the time", async (f: TSigned) => ({ ...f, createdAt: new Date(f.createdAt.getTime() - 3_600_000) })],
  ])("refuses a decision whose signed fields were altered: %s", async (_field, alter) => {
    const { client } = testDb();
    const request = await freshRequest();
    const specialist = await user(client, "SPECIALIST");
    // Signed over other values than the row holds: as a genuine decision edited afterwards would be.
    const signed = await signedDecision(client, await alter(await signedFields(request, specialist)));
    const stored = await signedFields(request, specialist);
    await client.approvalDecision.create({ data: { ...stored, signature: signed.signature, keyId: signed.keyId } });
    await client.approvalRequest.update({ where: { id: request.id }, data: { status: "approved" } });
    expect(await outcomeOf(request.id)).toEqual(badSignature("its signature does not verify"));
  });
});

type TSigned = Awaited<ReturnType<typeof signedFields>>;
async function signedFields(
  request: { id: string; digest: string },
  decider: { id: string; role: "REVIEWER" | "SPECIALIST" | "LEAD" | "ADMIN" },
) {
  return {
    approvalRequestId: request.id,
    decision: "approve" as const,
    deciderId: decider.id,
    deciderRole: decider.role,
    digest: request.digest,
    createdAt: new Date(Date.now() - 1_000),
  };
}
