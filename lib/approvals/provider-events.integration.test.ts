// Stripe's signed refund events, taken through the official client's verification: a refund that
// succeeds releases the reply once; one that fails after it succeeded returns the ticket to a person
// with the provider's reason and releases nothing more; a forged event and a replayed one change
// nothing. The events are signed with the client's own test helper, as Stripe signs them.
import Stripe from "stripe";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { approvalFor as approvalFor_, freshOrder as freshOrder_, tabletTicket as tabletTicket_, user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { executeApprovedRefund } from "../ledger/execute-approved-refund";
import { PAYMENT_SETTING_KEYS } from "../payments/payment-settings";
import { Prisma } from "../db";
import { refundedCentsSql } from "../orders/refund-facts";
import { decideApproval } from "./decide-approval";
import { REFUND_WORKER_ACTOR } from "./settle-refund";
import { takeStripeEvent } from "./take-provider-event";
import { readOutbox } from "./read-outbox";
import { deliverReply } from "../delivery/deliver-reply";

const SECRET = "whsec_provider-events-test-secret-0123456789";
const testDb = useTestDb(seedDemo);
beforeAll(async () => {
  const { client } = testDb();
  await client.setting.create({ data: { key: PAYMENT_SETTING_KEYS.stripeWebhookSecret, value: SECRET } });
});

let events = 0;
/** A refund event as Stripe sends it, and its Stripe-Signature made with `secret`. */
function stripeEvent(
  type: string,
  refund: { id: string; approvalId: string; status: string; failureReason?: string },
  options: { id?: string; secret?: string } = {},
) {
  const payload = JSON.stringify({
    id: options.id ?? `evt_test_${++events}`,
    object: "event",
    type,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    api_version: "2025-01-27",
    data: {
      object: {
        id: refund.id,
        object: "refund",
        amount: 7900,
        currency: "usd",
        status: refund.status,
        failure_reason: refund.failureReason ?? null,
        metadata: { countersign_approval: refund.approvalId },
      },
    },
  });
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? SECRET });
  return { rawBody: payload, signature };
}

/** An approved refund whose ledger row is written `requested` for Stripe, its provider not yet answered. */
async function requestedAtStripe() {
  const { client } = testDb();
  const world = await freshOrder_(client);
  await client.order.update({ where: { id: world.orderId }, data: { paymentReference: `pi_${world.orderId}` } });
  const request = await approvalFor_(client, await tabletTicket_(client, world));
  await decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, actor: await user(client, "REVIEWER") });
  const executed = await executeApprovedRefund({ approvalId: request.id, actor: REFUND_WORKER_ACTOR, provider: "stripe" });
  expect(executed.outcome).toBe("refund_created");
  return { request, orderId: world.orderId, entryId: executed.ledgerEntryId! };
}

/** What the refund facts count as refunded on the order (refund-facts.ts's one definition). */
async function refundedOn(orderId: string): Promise<number> {
  const [row] = await testDb().client.$queryRaw<{ refunded: number }[]>(
    Prisma.sql`SELECT ${refundedCentsSql(Prisma.sql`${orderId}`)}::int AS refunded`,
  );
  return row!.refunded;
}

async function snapshot(entryId: string, ticketId: string) {
  const { client } = testDb();
  return {
    entry: await client.ledgerEntry.findUniqueOrThrow({
      where: { id: entryId },
      select: { state: true, providerRefundId: true, failureReason: true },
    }),
    ticket: await client.ticket.findUniqueOrThrow({ where: { id: ticketId }, select: { status: true, reason: true } }),
    replies: await client.outboxMessage.count({ where: { ticketId } }),
    delivery: (await client.replyDelivery.findFirst({ where: { ticketId }, select: { state: true } }))?.state ?? null,
    inOutbox: (await readOutbox({ client }))!.messages.filter((m) => m.ticketId === ticketId).length,
    auditEvents: await client.auditEvent.count(),
    takenEvents: await client.paymentEvent.count(),
  };
}

describe(`Stripe's refund events (${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("releases the reply when the refund succeeds; a refund.failed before it was sent withdraws it and returns the ticket to a person", async () => {
    const { client } = testDb();
    const { request, orderId, entryId } = await requestedAtStripe();
    const refund = { id: "re_fails_later", approvalId: request.id };
    // A refund requested at the provider counts against the order until the provider says otherwise.
    expect(await refundedOn(orderId)).toBe(7_900);

    expect(await takeStripeEvent(stripeEvent("refund.updated", { ...refund, status: "succeeded" }))).toMatchObject({
      status: "taken",
      moved: true,
    });
    const succeeded = await snapshot(entryId, request.ticketId);
    expect(succeeded.entry).toEqual({ state: "succeeded", providerRefundId: "re_fails_later", failureReason: null });
    expect(succeeded.ticket.status).toBe("resolved");
    expect(succeeded).toMatchObject({ replies: 1, delivery: "pending", inOutbox: 1 });

    const failed = stripeEvent("refund.failed", { ...refund, status: "failed", failureReason: "expired_or_canceled_card" });
    expect(await takeStripeEvent(failed)).toMatchObject({ status: "taken", moved: true });
    const after = await snapshot(entryId, request.ticketId);
    expect(after.entry).toEqual({ state: "failed", providerRefundId: "re_fails_later", failureReason: "expired_or_canceled_card" });
    expect(after.ticket).toEqual({ status: "needs_human", reason: "refund_failed" });
    // The reply was not sent yet: withdrawn, it is never delivered and the helpdesk never reads it.
    expect(after).toMatchObject({ replies: 1, delivery: "withdrawn", inOutbox: 0 });
    const delivery = await client.replyDelivery.findFirstOrThrow({ where: { ticketId: request.ticketId } });
    expect(await deliverReply({ deliveryId: delivery.id, client })).toBe("skipped:withdrawn");
    expect(await client.auditEvent.count({ where: { action: "reply.withdrawn", subjectId: request.id } })).toBe(1);
    // The failed refund moved no money: the order's room is back.
    expect(await refundedOn(orderId)).toBe(0);
    const moves = await client.auditEvent.findMany({
      where: { action: "refund.provider_state", subjectId: request.id },
      orderBy: { seq: "asc" },
    });
    expect(moves.map((m) => (m.inputs as { state: string }).state)).toEqual(["succeeded", "failed"]);
  });

  it("a refund.failed after the reply was sent returns the ticket to a person for a correction, the reply as it was", async () => {
    const { client } = testDb();
    const { request, entryId } = await requestedAtStripe();
    const refund = { id: "re_fails_after_reply", approvalId: request.id };
    await takeStripeEvent(stripeEvent("refund.updated", { ...refund, status: "succeeded" }));
    const delivery = await client.replyDelivery.findFirstOrThrow({ where: { ticketId: request.ticketId } });
    expect(await deliverReply({ deliveryId: delivery.id, client })).toBe("delivered");

    await takeStripeEvent(stripeEvent("refund.failed", { ...refund, status: "failed", failureReason: "lost_or_stolen_card" }));
    const after = await snapshot(entryId, request.ticketId);
    expect(after.entry.state).toBe("failed");
    expect(after.ticket).toEqual({ status: "needs_human", reason: "refund_failed_after_reply" });
    expect(after).toMatchObject({ replies: 1, delivery: "delivered", inOutbox: 1 });
    expect(await client.auditEvent.count({ where: { action: "reply.withdrawn", subjectId: request.id } })).toBe(0);
  });

  it("refuses a forged event – another secret, an altered body, no signature – with nothing changed", async () => {
    const { request, entryId } = await requestedAtStripe();
    const refund = { id: "re_forged", approvalId: request.id, status: "succeeded" };
    const before = await snapshot(entryId, request.ticketId);

    const otherSecret = stripeEvent("refund.updated", refund, { secret: "whsec_someone-else-entirely-0123456789" });
    const genuine = stripeEvent("refund.updated", { ...refund, status: "pending" });
    const altered = { rawBody: genuine.rawBody.replace('"pending"', '"succeeded"'), signature: genuine.signature };
    for (const forged of [otherSecret, altered, { rawBody: genuine.rawBody, signature: null }])
      expect(await takeStripeEvent(forged)).toEqual({ status: "refused", why: "invalid_signature" });
    expect(await snapshot(entryId, request.ticketId)).toEqual(before);
    expect(before.entry.state).toBe("requested");
  });

  it("takes an event once: a replayed delivery of the same id changes nothing", async () => {
    const { request, entryId } = await requestedAtStripe();
    const first = stripeEvent("refund.updated", { id: "re_replayed", approvalId: request.id, status: "pending" }, { id: "evt_replayed" });
    expect(await takeStripeEvent(first)).toMatchObject({ status: "taken", moved: true });
    const taken = await snapshot(entryId, request.ticketId);
    expect(taken.entry.state).toBe("pending");

    // The same event again, signed afresh (as Stripe's retry is), and a copy whose body says succeeded.
    const again = stripeEvent("refund.updated", { id: "re_replayed", approvalId: request.id, status: "pending" }, { id: "evt_replayed" });
    const sameIdOtherState = stripeEvent(
      "refund.updated",
      { id: "re_replayed", approvalId: request.id, status: "succeeded" },
      { id: "evt_replayed" },
    );
    expect(await takeStripeEvent(again)).toEqual({ status: "replayed", eventId: "evt_replayed" });
    expect(await takeStripeEvent(sameIdOtherState)).toEqual({ status: "replayed", eventId: "evt_replayed" });
    expect(await snapshot(entryId, request.ticketId)).toEqual(taken);
  });
});
