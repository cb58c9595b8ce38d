// Injected faults as the official client meets them: what it throws, and what the fake holds after.
import Stripe from "stripe";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeStripe, type TFakeStripe } from "./index";
import { eventually, startWebhookReceiver, type TWebhookReceiver } from "./webhook-receiver";

const SECRET = "whsec_test_faults_0123456789";
let fake: TFakeStripe;
let stripe: Stripe;
let receiver: TWebhookReceiver;
let pi: { id: string; chargeId: string };
beforeEach(async () => {
  receiver = await startWebhookReceiver(SECRET);
  fake = await startFakeStripe({ webhookUrl: receiver.url, webhookSecret: SECRET });
  stripe = fake.client();
  pi = fake.addPaymentIntent({ amount: 10_000, currency: "usd" });
});
afterEach(async () => {
  await fake.stop();
  await receiver.close();
});

describe("error500", () => {
  it("answers 500 without making the refund; the same key afterwards makes it", async () => {
    fake.inject({ kind: "error500" });
    const error = await stripe.refunds.create({ payment_intent: pi.id, amount: 100 }, { idempotencyKey: "k" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect(error).toMatchObject({ statusCode: 500 });
    expect(fake.refunds()).toEqual([]);
    const made = await stripe.refunds.create({ payment_intent: pi.id, amount: 100 }, { idempotencyKey: "k" });
    expect(fake.refunds().map((r) => r.id)).toEqual([made.id]);
  });

  it("is taken only by a request whose path includes its match, and `times` of them", async () => {
    fake.inject({ kind: "error500", match: "/cancel", times: 2 });
    const refund = await stripe.refunds.create({ payment_intent: pi.id, amount: 100 });
    await expect(stripe.refunds.cancel(refund.id)).rejects.toMatchObject({ statusCode: 500 });
    await expect(stripe.refunds.cancel(refund.id)).rejects.toMatchObject({ statusCode: 500 });
    // The third reaches the endpoint, which refuses a succeeded refund for itself.
    await expect(stripe.refunds.cancel(refund.id)).rejects.toMatchObject({ statusCode: 400 });
  });
});

describe("lose_answer", () => {
  it("makes the refund and drops the answer; a retry with the same key returns that refund and makes no second one", async () => {
    // Twice: the client itself retries a closed connection once (with the same key), even with maxNetworkRetries 0.
    fake.inject({ kind: "lose_answer", times: 2 });
    const params = { payment_intent: pi.id, amount: 2500 };
    const error = await stripe.refunds.create(params, { idempotencyKey: "approval-9" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeConnectionError);
    expect(fake.refunds()).toHaveLength(1);

    const retried = await stripe.refunds.create(params, { idempotencyKey: "approval-9" });
    expect(retried.id).toBe(fake.refunds()[0]!.id);
    expect(retried.lastResponse.headers["idempotent-replayed"]).toBe("true");
    expect(fake.refunds()).toHaveLength(1);
  });

  it("once: the client's own retry of the closed connection gets the refund, still one", async () => {
    fake.inject({ kind: "lose_answer" });
    const refund = await stripe.refunds.create({ payment_intent: pi.id, amount: 2500 });
    expect(refund.lastResponse.headers["idempotent-replayed"]).toBe("true");
    expect(fake.refunds().map((r) => r.id)).toEqual([refund.id]);
  });
});

describe("slow", () => {
  it("answers after the delay, the refund made before it; a client that gives up first has made it all the same", async () => {
    fake.inject({ kind: "slow", ms: 400 });
    const started = Date.now();
    await stripe.refunds.create({ payment_intent: pi.id, amount: 100 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(395);

    fake.inject({ kind: "slow", ms: 1_000 });
    const impatient = fake.client({ timeout: 150 });
    const error = await impatient.refunds.create({ payment_intent: pi.id, amount: 200 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeConnectionError);
    expect((error as Error).message).toMatch(/timeout/);
    expect(fake.refunds().map((r) => r.amount)).toEqual([100, 200]);
  });

  it("lets a held answer go early when released, and only the answers held at that moment", async () => {
    fake.inject({ kind: "slow", ms: 30_000 });
    const started = Date.now();
    const answer = stripe.refunds.create({ payment_intent: pi.id, amount: 300 });
    await eventually(() => fake.refunds().length === 1, "the refund made while its answer is held");
    expect(fake.release()).toBe(1);
    const refund = await answer;
    expect(refund.amount).toBe(300);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(fake.release()).toBe(0);
  });
});

describe("fail_later", () => {
  it("reports the next refund succeeded, then fails it after afterMs with refund.updated and refund.failed", async () => {
    fake.inject({ kind: "fail_later", afterMs: 200, reason: "expired_or_canceled_card" });
    const refund = await stripe.refunds.create({ payment_intent: pi.id, amount: 700 });
    expect(refund.status).toBe("succeeded");
    const untouched = await stripe.refunds.create({ payment_intent: pi.id, amount: 300 });

    await eventually(() => fake.events().filter((e) => e.delivered).length === 4, "four events delivered");
    expect((await stripe.refunds.retrieve(refund.id)).status).toBe("failed");
    expect((await stripe.refunds.retrieve(untouched.id)).status).toBe("succeeded");
    const forFailed = receiver.events().filter((e) => (e.data.object as Stripe.Refund).id === refund.id);
    expect(forFailed.map((e) => e.type)).toEqual(["refund.created", "refund.updated", "refund.failed"]);
    expect(forFailed[2]!.data.object).toMatchObject({ status: "failed", failure_reason: "expired_or_canceled_card" });
  });
});
