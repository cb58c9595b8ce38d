// Approved refunds executed at Stripe exactly once, whatever happens between our call and its answer:
// the official client against the fake Stripe (testing/fake-stripe), reached through the client's own
// host and port. The provider's side is counted at the fake: one refund per approved operation.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { startFakeStripe, type TFakeStripe } from "../../testing/fake-stripe";
import { drainQueue } from "../../testing/queue";
import { approvalFor, freshOrder, tabletTicket, user } from "../../testing/runs";
import { killHard, spawnTs } from "../../testing/spawn-ts";
import { seedDemo } from "../../prisma/seed/demo";
import { PAYMENT_SETTING_KEYS } from "../payments/payment-settings";
import { stripeProvider } from "../payments/stripe-provider";
import { decideApproval } from "./decide-approval";
import { reconcileProviderRefunds } from "./reconcile-refunds";
import { settleApprovedRefund } from "./settle-refund";

const testDb = useTestDb(seedDemo);
let fake: TFakeStripe;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  const { client } = testDb();
  fake = await startFakeStripe();
  await client.setting.createMany({
    data: [
      { key: PAYMENT_SETTING_KEYS.provider, value: "stripe" },
      { key: PAYMENT_SETTING_KEYS.stripeSecretKey, value: fake.apiKey },
      { key: PAYMENT_SETTING_KEYS.stripeApiUrl, value: `${fake.protocol}://${fake.host}:${fake.port}` },
    ],
  });
});
afterAll(async () => fake?.stop());

/** An approved 79 USD refund on an order paid with a PaymentIntent at the fake (`paid` cents). */
async function approvedRefund(paid = 7_900, at: TFakeStripe = fake) {
  const { client } = testDb();
  const world = await freshOrder(client);
  const payment = at.addPaymentIntent({ amount: paid, currency: "usd" });
  await client.order.update({ where: { id: world.orderId }, data: { paymentReference: payment.id } });
  const request = await approvalFor(client, await tabletTicket(client, world));
  await decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, actor: await user(client, "REVIEWER") });
  return { request, paymentIntent: payment.id };
}

/** The provider's refunds for a payment, and our side: the ledger row, the ticket, the replies. */
async function sides(approval: { id: string; ticketId: string }, paymentIntent: string, at: TFakeStripe = fake) {
  const { client } = testDb();
  return {
    atProvider: at.refunds().filter((r) => r.payment_intent === paymentIntent),
    rows: await client.ledgerEntry.findMany({
      where: { approvalRequestId: approval.id },
      select: { provider: true, state: true, providerRefundId: true, failureReason: true, idempotencyKey: true },
    }),
    ticket: await client.ticket.findUniqueOrThrow({ where: { id: approval.ticketId }, select: { status: true, reason: true } }),
    replies: await client.outboxMessage.count({ where: { approvalRequestId: approval.id } }),
  };
}

describe(`refunds at Stripe (${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("executes an approved refund through the job queue: one refund at Stripe, the row succeeded, the reply released", async () => {
    const { request, paymentIntent } = await approvedRefund();
    await drainQueue(testDb());
    const after = await sides(request, paymentIntent);
    expect(after.atProvider).toHaveLength(1);
    expect(after.atProvider[0]).toMatchObject({
      amount: 7_900,
      currency: "usd",
      status: "succeeded",
      metadata: { countersign_approval: request.id },
    });
    expect(after.rows).toEqual([
      {
        provider: "stripe",
        state: "succeeded",
        providerRefundId: after.atProvider[0]!.id,
        failureReason: null,
        idempotencyKey: expect.any(String),
      },
    ]);
    expect(after.ticket.status).toBe("resolved");
    expect(after.replies).toBe(1);
  });

  it("retries a provider 500 with the same key: one refund", async () => {
    const { request, paymentIntent } = await approvedRefund();
    fake.inject({ kind: "error500", match: "/v1/refunds" });
    await expect(settleApprovedRefund({ approvalId: request.id })).rejects.toThrow();
    const between = await sides(request, paymentIntent);
    expect(between.atProvider).toHaveLength(0);
    expect(between.rows.map((r) => r.state)).toEqual(["requested"]);
    expect(between.replies).toBe(0);
    expect(between.ticket.status).toBe("approved");

    expect(await settleApprovedRefund({ approvalId: request.id })).toMatchObject({ refundState: "succeeded", replyReleased: true });
    const after = await sides(request, paymentIntent);
    expect(after.atProvider).toHaveLength(1);
    expect(after.rows.map((r) => r.state)).toEqual(["succeeded"]);
    expect(after.replies).toBe(1);
  });

  it("asks again with the same key after an answer was lost: the refund the provider made, not a second one", async () => {
    const { request, paymentIntent } = await approvedRefund();
    // Twice: the client retries a closed connection once by itself, with the same key.
    fake.inject({ kind: "lose_answer", times: 2, match: "/v1/refunds" });
    await expect(settleApprovedRefund({ approvalId: request.id })).rejects.toThrow();
    const between = await sides(request, paymentIntent);
    expect(between.atProvider).toHaveLength(1);
    expect(between.rows.map((r) => r.state)).toEqual(["requested"]);
    expect(between.replies).toBe(0);

    // The reconciliation finds the row left requested and asks again with its key.
    const reconciled = await reconcileProviderRefunds({ olderThanMs: 0 });
    expect(reconciled.failed).toEqual([]);
    const after = await sides(request, paymentIntent);
    expect(after.atProvider).toHaveLength(1);
    expect(after.rows).toMatchObject([{ state: "succeeded", providerRefundId: after.atProvider[0]!.id }]);
    expect(after.ticket.status).toBe("resolved");
    expect(after.replies).toBe(1);
  });

  it("waits on a pending refund: no reply until the provider says it succeeded, then the reconciliation settles it", async () => {
    const slow = await startFakeStripe({ settleAfterMs: 400 });
    try {
      const provider = stripeProvider({ secretKey: slow.apiKey, apiUrl: `${slow.protocol}://${slow.host}:${slow.port}` });
      const { request, paymentIntent } = await approvedRefund(7_900, slow);
      expect(await settleApprovedRefund({ approvalId: request.id, provider })).toMatchObject({
        refundState: "pending",
        replyReleased: false,
      });
      const waiting = await sides(request, paymentIntent, slow);
      expect(waiting.rows).toMatchObject([{ state: "pending", providerRefundId: waiting.atProvider[0]!.id }]);
      expect(waiting.ticket.status).toBe("approved");
      expect(waiting.replies).toBe(0);
      // Not due yet: left alone.
      await reconcileProviderRefunds({ olderThanMs: 60_000, provider });
      expect((await sides(request, paymentIntent, slow)).rows.map((r) => r.state)).toEqual(["pending"]);

      await sleep(600);
      await reconcileProviderRefunds({ olderThanMs: 0, provider });
      const after = await sides(request, paymentIntent, slow);
      expect(after.atProvider).toHaveLength(1);
      expect(after.rows.map((r) => r.state)).toEqual(["succeeded"]);
      expect(after.ticket.status).toBe("resolved");
      expect(after.replies).toBe(1);
    } finally {
      await slow.stop();
    }
  });

  it("records a refund the provider refuses as failed, with its reason: the ticket back to a person, no reply", async () => {
    // The payment was for 10 USD: Stripe refuses a 79 USD refund of it.
    const { request, paymentIntent } = await approvedRefund(1_000);
    const settled = await settleApprovedRefund({ approvalId: request.id });
    expect(settled).toMatchObject({ outcome: "refund_created", refundState: "failed", replyReleased: false });
    const after = await sides(request, paymentIntent);
    expect(after.atProvider).toHaveLength(0);
    expect(after.rows).toMatchObject([{ state: "failed", failureReason: "provider_refused", providerRefundId: null }]);
    expect(after.ticket).toEqual({ status: "needs_human", reason: "refund_failed" });
    expect(after.replies).toBe(0);
    // Run again (a retried job): nothing more at the provider or here.
    expect(await settleApprovedRefund({ approvalId: request.id })).toMatchObject({ settledNow: false, refundState: "failed" });
    expect((await sides(request, paymentIntent)).atProvider).toHaveLength(0);
  });

  it.runIf(!!process.env.DATABASE_URL)(
    "survives a crash after Stripe made the refund and before we recorded it: one refund, the row succeeded after reconciliation",
    async () => {
      const db = testDb();
      const { request, paymentIntent } = await approvedRefund();
      // The provider makes the refund, then holds its answer; the settling process dies meanwhile.
      fake.inject({ kind: "slow", ms: 30_000, match: "/v1/refunds" });
      const child = spawnTs("testing/settle-then-hang.ts", [db.url!, request.id]);
      for (let i = 0; i < 400 && !fake.refunds().some((r) => r.payment_intent === paymentIntent); i++) await sleep(50);
      await killHard(child);
      const crashed = await sides(request, paymentIntent);
      expect(crashed.atProvider).toHaveLength(1);
      expect(crashed.rows.map((r) => r.state)).toEqual(["requested"]);
      expect(crashed.replies).toBe(0);
      expect(crashed.ticket.status).toBe("approved");

      const reconciled = await reconcileProviderRefunds({ olderThanMs: 0 });
      expect(reconciled.failed).toEqual([]);
      const after = await sides(request, paymentIntent);
      expect(after.atProvider).toHaveLength(1);
      expect(after.rows).toMatchObject([{ state: "succeeded", providerRefundId: after.atProvider[0]!.id }]);
      expect(after.ticket.status).toBe("resolved");
      expect(after.replies).toBe(1);
    },
    60_000,
  );
});
