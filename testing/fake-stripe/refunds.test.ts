// The refunds API and its idempotency, through the official client over real HTTP.
import Stripe from "stripe";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeStripe, type TFakeStripe } from "./index";

let fake: TFakeStripe;
let stripe: Stripe;
beforeEach(async () => {
  fake = await startFakeStripe({ settleAfterMs: 0 });
  stripe = fake.client();
});
afterEach(() => fake.stop());

describe("creating a refund", () => {
  it("refunds part of a payment intent, and the refund reads back by id and in the list", async () => {
    const pi = fake.addPaymentIntent({ amount: 5000, currency: "eur" });
    const refund = await stripe.refunds.create({
      payment_intent: pi.id,
      amount: 1200,
      reason: "requested_by_customer",
      metadata: { ticket: "T-1" },
    });
    expect(refund).toMatchObject({
      object: "refund",
      amount: 1200,
      currency: "eur",
      status: "succeeded",
      payment_intent: pi.id,
      charge: pi.chargeId,
      reason: "requested_by_customer",
      metadata: { ticket: "T-1" },
    });
    expect(refund.id).toMatch(/^re_[0-9A-Za-z]{24}$/);
    expect(await stripe.refunds.retrieve(refund.id)).toEqual(refund);
    const list = await stripe.refunds.list({ payment_intent: pi.id });
    expect(list.data.map((r) => r.id)).toEqual([refund.id]);
    expect(fake.refunds()).toEqual([refund]);
  });

  it("refunds what remains when no amount is given, by charge as well as by payment intent", async () => {
    const pi = fake.addPaymentIntent({ amount: 900, currency: "usd", id: "pi_known" });
    expect(pi.id).toBe("pi_known");
    await stripe.refunds.create({ payment_intent: pi.id, amount: 300 });
    const rest = await stripe.refunds.create({ charge: pi.chargeId });
    expect(rest).toMatchObject({ amount: 600, payment_intent: "pi_known" });
  });

  it("refuses an amount above what remains, and anything once the charge is fully refunded", async () => {
    const pi = fake.addPaymentIntent({ amount: 1000, currency: "usd" });
    await stripe.refunds.create({ payment_intent: pi.id, amount: 700 });
    const tooLarge = await stripe.refunds.create({ payment_intent: pi.id, amount: 301 }).catch((e: unknown) => e);
    expect(tooLarge).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(tooLarge).toMatchObject({ statusCode: 400, code: "amount_too_large", param: "amount", type: "StripeInvalidRequestError" });
    expect((tooLarge as Error).message).toBe("Refund amount ($3.01) is greater than unrefunded amount on charge ($3.00)");
    await stripe.refunds.create({ payment_intent: pi.id, amount: 300 });
    const done = await stripe.refunds.create({ payment_intent: pi.id, amount: 1 }).catch((e: unknown) => e);
    expect(done).toMatchObject({ statusCode: 400, code: "charge_already_refunded" });
    expect(fake.refunds().map((r) => r.amount)).toEqual([700, 300]);
  });

  it("refuses an unknown payment intent, a missing target and a wrong key as Stripe does", async () => {
    await expect(stripe.refunds.create({ payment_intent: "pi_nope" })).rejects.toMatchObject({
      statusCode: 400,
      code: "resource_missing",
      param: "payment_intent",
    });
    await expect(stripe.refunds.create({})).rejects.toMatchObject({ statusCode: 400, code: "parameter_missing" });
    await expect(stripe.refunds.retrieve("re_nope")).rejects.toMatchObject({ statusCode: 404, code: "resource_missing" });
    const wrongKey = new Stripe("sk_test_someone_else", { host: fake.host, port: fake.port, protocol: "http" });
    await expect(wrongKey.refunds.create({ payment_intent: "pi_x" })).rejects.toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    await expect(wrongKey.refunds.list()).rejects.toMatchObject({ statusCode: 401, message: expect.stringContaining("Invalid API Key") });
    expect(fake.refunds()).toEqual([]);
  });
});

describe("idempotency keys", () => {
  it("answers the same key and body with the first refund, marked replayed, and makes no second one", async () => {
    const pi = fake.addPaymentIntent({ amount: 5000, currency: "usd" });
    const params = { payment_intent: pi.id, amount: 1000, metadata: { approval: "A-1" } };
    const first = await stripe.refunds.create(params, { idempotencyKey: "approval-A-1" });
    const again = await stripe.refunds.create(params, { idempotencyKey: "approval-A-1" });
    expect(again).toEqual(first);
    expect(first.lastResponse.headers["idempotent-replayed"]).toBeUndefined();
    expect(again.lastResponse.headers["idempotent-replayed"]).toBe("true");
    expect(again.lastResponse.headers["original-request"]).toBe(first.lastResponse.requestId);
    expect(fake.refunds()).toHaveLength(1);
  });

  it("refuses the same key with other parameters with idempotency_error", async () => {
    const pi = fake.addPaymentIntent({ amount: 5000, currency: "usd" });
    await stripe.refunds.create({ payment_intent: pi.id, amount: 1000 }, { idempotencyKey: "k-1" });
    const error = await stripe.refunds.create({ payment_intent: pi.id, amount: 1001 }, { idempotencyKey: "k-1" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(error).toMatchObject({ statusCode: 400, rawType: "idempotency_error" });
    expect(fake.refunds()).toHaveLength(1);
  });

  it("makes two refunds from two calls without a key of the caller's (the client keys each call afresh)", async () => {
    const pi = fake.addPaymentIntent({ amount: 5000, currency: "usd" });
    const a = await stripe.refunds.create({ payment_intent: pi.id, amount: 1000 });
    const b = await stripe.refunds.create({ payment_intent: pi.id, amount: 1000 });
    expect(a.id).not.toBe(b.id);
    expect(fake.refunds()).toHaveLength(2);
  });

  it("keeps a refusal by the endpoint's rules for the key, but not a refusal of the parameters", async () => {
    const pi = fake.addPaymentIntent({ amount: 500, currency: "usd" });
    await expect(stripe.refunds.create({ payment_intent: "pi_typo", amount: 100 }, { idempotencyKey: "k-2" })).rejects.toMatchObject({
      code: "resource_missing",
    });
    // Nothing was kept for k-2, so the corrected request runs under it.
    const made = await stripe.refunds.create({ payment_intent: pi.id, amount: 100 }, { idempotencyKey: "k-2" });
    expect(made.amount).toBe(100);

    const tooLarge = { payment_intent: pi.id, amount: 900 };
    await expect(stripe.refunds.create(tooLarge, { idempotencyKey: "k-3" })).rejects.toMatchObject({ code: "amount_too_large" });
    const replay = await stripe.refunds.create(tooLarge, { idempotencyKey: "k-3" }).catch((e: unknown) => e);
    expect(replay).toMatchObject({ code: "amount_too_large", headers: expect.objectContaining({ "idempotent-replayed": "true" }) });
  });
});

describe("listing and canceling", () => {
  it("lists newest first, a page at a time, and the client's auto-pagination walks every page", async () => {
    const pi = fake.addPaymentIntent({ amount: 5000, currency: "usd" });
    const other = fake.addPaymentIntent({ amount: 5000, currency: "usd" });
    const made: string[] = [];
    for (const amount of [100, 200, 300, 400, 500]) made.push((await stripe.refunds.create({ payment_intent: pi.id, amount })).id);
    await stripe.refunds.create({ payment_intent: other.id, amount: 50 });
    const newestFirst = [...made].reverse();

    const first = await stripe.refunds.list({ payment_intent: pi.id, limit: 2 });
    expect(first.data.map((r) => r.id)).toEqual(newestFirst.slice(0, 2));
    expect(first.has_more).toBe(true);
    const second = await stripe.refunds.list({ payment_intent: pi.id, limit: 2, starting_after: first.data[1]!.id });
    expect(second.data.map((r) => r.id)).toEqual(newestFirst.slice(2, 4));
    const back = await stripe.refunds.list({ payment_intent: pi.id, limit: 2, ending_before: second.data[0]!.id });
    expect(back.data.map((r) => r.id)).toEqual(newestFirst.slice(0, 2));
    const all = await stripe.refunds.list({ payment_intent: pi.id, limit: 2 }).autoPagingToArray({ limit: 100 });
    expect(all.map((r) => r.id)).toEqual(newestFirst);
    expect((await stripe.refunds.list({ limit: 100 })).data).toHaveLength(6);
  });

  it("cancels a pending refund, which gives its amount back, and refuses to cancel a succeeded one", async () => {
    const slow = await startFakeStripe({ settleAfterMs: 60_000 });
    try {
      const client = slow.client();
      const pi = slow.addPaymentIntent({ amount: 1000, currency: "usd" });
      const pending = await client.refunds.create({ payment_intent: pi.id });
      expect(pending.status).toBe("pending");
      expect((await client.refunds.cancel(pending.id)).status).toBe("canceled");
      const whole = await client.refunds.create({ payment_intent: pi.id, amount: 1000 });
      slow.setRefundStatus(whole.id, "succeeded");
      await expect(client.refunds.cancel(whole.id)).rejects.toMatchObject({ statusCode: 400 });
      expect(slow.refunds().map((r) => r.status)).toEqual(["canceled", "succeeded"]);
    } finally {
      await slow.stop();
    }
  });
});
