// Guarantees the database keeps on its own, whatever code runs against it: these use the client
// directly, bypassing every application check, to show the database refuses.
import { describe, expect, it } from "vitest";
import { insertSignedDecision } from "../../testing/decisions";
import { isUniqueViolation } from "../db";
import { makeOrder, ledgerRow } from "../../testing/fixtures";
import { asOwner, useTestDb } from "../../testing/db";
import { testAuditAction } from "../../testing/audit";
import { recordAuditEvent } from "../audit/record-audit-event";

const testDb = useTestDb();
const onDatabase = process.env.DATABASE_URL ? "PostgreSQL" : "PGlite";

describe(`ledger and audit guarantees (${onDatabase})`, () => {
  it("refuses a second ledger row with the same idempotency key", async () => {
    const { client } = testDb();
    const order = await makeOrder(client);
    await client.ledgerEntry.create({ data: ledgerRow(order.id, "refund:approval-1") });
    const second = client.ledgerEntry.create({ data: ledgerRow(order.id, "refund:approval-1") });
    await expect(second).rejects.toSatisfy(isUniqueViolation);
    expect(await client.ledgerEntry.count({ where: { idempotencyKey: "refund:approval-1" } })).toBe(1);
  });

  it("refuses to update or delete a ledger row", async () => {
    const { client } = testDb();
    const order = await makeOrder(client);
    const row = await client.ledgerEntry.create({ data: ledgerRow(order.id) });
    await expect(client.ledgerEntry.update({ where: { id: row.id }, data: { amountCents: 1 } })).rejects.toThrow(
      /append_only|permission denied for table/,
    );
    await expect(client.ledgerEntry.delete({ where: { id: row.id } })).rejects.toThrow(/append_only|permission denied for table/);
    await expect(client.$executeRawUnsafe(`UPDATE "LedgerEntry" SET "amountCents" = 5`)).rejects.toThrow(
      /append_only|permission denied for table/,
    );
    await expect(client.$executeRawUnsafe(`DELETE FROM "LedgerEntry"`)).rejects.toThrow(/append_only|permission denied for table/);
    await expect(client.$executeRawUnsafe(`TRUNCATE "LedgerEntry"`)).rejects.toThrow(/append_only|permission denied for table/);
    expect(await client.ledgerEntry.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({ amountCents: row.amountCents });
  });

  it("lets a refund's provider state move forward only, its refund id be set once, and nothing else change", async () => {
    const { client } = testDb();
    const order = await makeOrder(client);
    const row = await client.ledgerEntry.create({ data: { ...ledgerRow(order.id), provider: "stripe", state: "requested" } });
    // As the tables' owner: the app's own role may not UPDATE the ledger at all (lib/db/privileges.ts);
    // the trigger is what holds even for the owner.
    const move = (set: string) =>
      asOwner(testDb(), (owner) => owner.$executeRawUnsafe(`UPDATE "LedgerEntry" SET ${set} WHERE "id" = '${row.id}'::uuid`));
    const refused = /append_only|permission denied for table/;

    await move(`"state" = 'pending', "providerRefundId" = 're_1'`);
    await expect(move(`"providerRefundId" = 're_2'`)).rejects.toThrow(refused);
    await expect(move(`"state" = 'requested'`)).rejects.toThrow(refused);
    // A reason only with a failure; the money, the key and the provider never change.
    await expect(move(`"failureReason" = 'declined'`)).rejects.toThrow(refused);
    await expect(move(`"state" = 'succeeded', "amountCents" = 1`)).rejects.toThrow(refused);
    await expect(move(`"provider" = 'ledger-only'`)).rejects.toThrow(refused);
    await move(`"state" = 'succeeded'`);
    await expect(move(`"state" = 'canceled'`)).rejects.toThrow(refused);
    // Card refunds can fail after they succeeded; a failed one is final.
    await move(`"state" = 'failed', "failureReason" = 'expired_or_canceled_card'`);
    await expect(move(`"state" = 'succeeded'`)).rejects.toThrow(refused);
    await expect(client.ledgerEntry.delete({ where: { id: row.id } })).rejects.toThrow(refused);
    expect(await client.ledgerEntry.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({
      amountCents: row.amountCents,
      provider: "stripe",
      providerRefundId: "re_1",
      state: "failed",
      failureReason: "expired_or_canceled_card",
    });
  });

  it("refuses to update or delete an audit event", async () => {
    const { client } = testDb();
    await client.$transaction((tx) => recordAuditEvent(tx, { actorType: "system", action: testAuditAction("event"), subjectType: "test" }));
    const event = await client.auditEvent.findFirstOrThrow({ where: { action: testAuditAction("event") } });
    await expect(client.auditEvent.update({ where: { seq: event.seq }, data: { action: "tampered" } })).rejects.toThrow(
      /append_only|permission denied for table/,
    );
    await expect(client.auditEvent.delete({ where: { seq: event.seq } })).rejects.toThrow(/append_only|permission denied for table/);
    await expect(client.$executeRawUnsafe(`DELETE FROM "AuditEvent"`)).rejects.toThrow(/append_only|permission denied for table/);
    await expect(client.$executeRawUnsafe(`TRUNCATE "AuditEvent"`)).rejects.toThrow(/append_only|permission denied for table/);
    expect(await client.auditEvent.findUniqueOrThrow({ where: { seq: event.seq } })).toMatchObject({
      action: testAuditAction("event"),
      hash: event.hash,
    });
  });

  it("refuses a ledger row with a zero or negative amount", async () => {
    const { client } = testDb();
    const order = await makeOrder(client);
    await expect(client.ledgerEntry.create({ data: ledgerRow(order.id, undefined, 0) })).rejects.toThrow();
    await expect(client.ledgerEntry.create({ data: ledgerRow(order.id, undefined, -500) })).rejects.toThrow();
  });

  it("accepts at most one decision per approval request, and never changes it", async () => {
    const { client } = testDb();
    const order = await makeOrder(client);
    const reviewer = await client.user.create({ data: { email: "r@example.com", name: "R", role: "REVIEWER", passwordHash: "x" } });
    const ticket = await client.ticket.create({
      data: {
        source: "seed",
        subject: "s",
        body: "b",
        customerEmail: "c@example.net",
        orderRef: order.id,
        route: "guarded_agent",
        bundleVersion: "b",
        admission: "admitted",
      },
    });
    const request = await client.approvalRequest.create({
      data: {
        ticketId: ticket.id,
        kind: "reply",
        digest: "d",
        operation: {},
        policyVersion: "p",
        bundleVersion: "b",
        agentVersion: "a",
        corpusHash: "c",
        requiredRole: "REVIEWER",
        expiresAt: new Date(Date.now() + 60_000),
      },
    });
    const decision = {
      approvalRequestId: request.id,
      decision: "approve" as const,
      deciderId: reviewer.id,
      deciderRole: "REVIEWER" as const,
      digest: "d",
    };
    const first = await insertSignedDecision(client, decision);
    await expect(insertSignedDecision(client, { ...decision, decision: "reject" })).rejects.toSatisfy(isUniqueViolation);
    await expect(client.approvalDecision.update({ where: { id: first.id }, data: { decision: "reject" } })).rejects.toThrow(
      /append_only|permission denied for table/,
    );
    expect(await client.approvalDecision.count({ where: { approvalRequestId: request.id } })).toBe(1);
  });
});
