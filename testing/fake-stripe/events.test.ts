// Refund statuses over time and the signed events sent for each move, received by a real HTTP
// endpoint that verifies them with the official client's `webhooks.constructEvent`.
import Stripe from "stripe";
import { afterEach, describe, expect, it } from "vitest";
import { signatureHeader, startFakeStripe, type TFakeStripe } from "./index";
import { eventually, startWebhookReceiver, type TWebhookReceiver } from "./webhook-receiver";

const SECRET = "whsec_test_events_0123456789";
let fake: TFakeStripe | undefined;
let receiver: TWebhookReceiver | undefined;
afterEach(async () => {
  await fake?.stop();
  await receiver?.close();
  fake = receiver = undefined;
});

/** "type status (was previous status)" for each event, to read the sequence at a glance. */
function summary(events: Stripe.Event[]): string[] {
  return events.map((e) => {
    const was = (e.data.previous_attributes as Partial<Stripe.Refund> | undefined)?.status;
    return `${e.type} ${(e.data.object as Stripe.Refund).status}${was ? ` (was ${was})` : ""}`;
  });
}

describe("events", () => {
  it("signs as the official client does: its own test header verifies the same way", async () => {
    const verifier = new Stripe("sk_test_unused");
    const body = JSON.stringify({ id: "evt_1", object: "event" });
    const timestamp = Math.floor(Date.now() / 1000);
    expect(signatureHeader(body, SECRET, timestamp)).toBe(
      verifier.webhooks.generateTestHeaderString({ payload: body, secret: SECRET, timestamp }),
    );
    expect(() => verifier.webhooks.constructEvent(body, signatureHeader(body, "whsec_other"), SECRET)).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
  });

  it("moves a refund from pending to succeeded after settleAfterMs and sends refund.created then refund.updated", async () => {
    receiver = await startWebhookReceiver(SECRET);
    fake = await startFakeStripe({ webhookUrl: receiver.url, webhookSecret: SECRET, settleAfterMs: 300 });
    const stripe = fake.client();
    const pi = fake.addPaymentIntent({ amount: 2000, currency: "usd" });
    const refund = await stripe.refunds.create({ payment_intent: pi.id, amount: 2000 }, { idempotencyKey: "approval-7" });
    expect(refund.status).toBe("pending");
    expect((await stripe.refunds.retrieve(refund.id)).status).toBe("pending");

    await eventually(() => receiver!.events().length === 2, "two events");
    expect((await stripe.refunds.retrieve(refund.id)).status).toBe("succeeded");
    const [created, updated] = receiver.events();
    expect(summary(receiver.events())).toEqual(["refund.created pending", "refund.updated succeeded (was pending)"]);
    expect(created).toMatchObject({
      object: "event",
      livemode: false,
      api_version: Stripe.API_VERSION,
      request: { idempotency_key: "approval-7" },
    });
    expect(updated!.created).toBeGreaterThanOrEqual(created!.created);
    expect(receiver.deliveries.every((d) => d.verified)).toBe(true);
    expect(fake.events()).toEqual([
      { id: created!.id, type: "refund.created", refundId: refund.id, delivered: true, attempts: 1 },
      { id: updated!.id, type: "refund.updated", refundId: refund.id, delivered: true, attempts: 1 },
    ]);
  });

  it("sends refund.updated and refund.failed when a refund is made to fail, with its failure_reason", async () => {
    receiver = await startWebhookReceiver(SECRET);
    fake = await startFakeStripe({ webhookUrl: receiver.url, webhookSecret: SECRET });
    const pi = fake.addPaymentIntent({ amount: 2000, currency: "usd" });
    const refund = await fake.client().refunds.create({ payment_intent: pi.id, amount: 1500 });
    fake.setRefundStatus(refund.id, "failed", "lost_or_stolen_card");
    await eventually(() => receiver!.events().length === 3, "three events");
    expect(summary(receiver.events())).toEqual([
      "refund.created succeeded",
      "refund.updated failed (was succeeded)",
      "refund.failed failed",
    ]);
    expect(receiver.events()[2]!.data.object).toMatchObject({ id: refund.id, failure_reason: "lost_or_stolen_card" });
    // A failed refund gives its amount back to the charge.
    await expect(fake.client().refunds.create({ payment_intent: pi.id, amount: 2000 })).resolves.toMatchObject({ amount: 2000 });
  });

  it("sends an event again, each wait longer, until the endpoint answers 2xx", async () => {
    receiver = await startWebhookReceiver(SECRET, (_, index) => (index < 3 ? 500 : 200));
    fake = await startFakeStripe({ webhookUrl: receiver.url, webhookSecret: SECRET, webhookRetryBaseMs: 100 });
    const pi = fake.addPaymentIntent({ amount: 2000, currency: "usd" });
    await fake.client().refunds.create({ payment_intent: pi.id });
    await eventually(() => fake!.events()[0]?.delivered === true, "the event delivered");
    const deliveries = receiver.deliveries;
    expect(deliveries).toHaveLength(4);
    expect(new Set(deliveries.map((d) => d.event!.id)).size).toBe(1);
    const waits = deliveries.slice(1).map((d, i) => d.at - deliveries[i]!.at);
    // 100, 200, 400 ms: timers never fire early.
    expect(waits[0]).toBeGreaterThanOrEqual(95);
    expect(waits[1]).toBeGreaterThanOrEqual(195);
    expect(waits[2]).toBeGreaterThanOrEqual(395);
    expect(fake.events()[0]).toMatchObject({ type: "refund.created", delivered: true, attempts: 4 });
  });

  it("counts an endpoint that does not answer in time as a failed attempt", async () => {
    let hang = true;
    const { createServer } = await import("node:http");
    const slow = createServer((request, response) => {
      if (hang) return void (hang = false);
      request.pipe(response);
    });
    await new Promise<void>((r) => slow.listen(0, "127.0.0.1", r));
    const port = (slow.address() as import("node:net").AddressInfo).port;
    try {
      fake = await startFakeStripe({ webhookUrl: `http://127.0.0.1:${port}/`, webhookTimeoutMs: 200, webhookRetryBaseMs: 50 });
      await fake.client().refunds.create({ payment_intent: fake.addPaymentIntent({ amount: 100, currency: "usd" }).id });
      await eventually(() => fake!.events()[0]?.delivered === true, "the event delivered on its second attempt");
      expect(fake.events()[0]!.attempts).toBe(2);
    } finally {
      slow.closeAllConnections();
      slow.close();
    }
  });

  it("records events without sending them while no endpoint is set, and sends later ones once it is", async () => {
    receiver = await startWebhookReceiver(SECRET);
    fake = await startFakeStripe({ webhookSecret: SECRET });
    const pi = fake.addPaymentIntent({ amount: 2000, currency: "usd" });
    await fake.client().refunds.create({ payment_intent: pi.id, amount: 100 });
    fake.setWebhookUrl(receiver.url);
    await fake.client().refunds.create({ payment_intent: pi.id, amount: 200 });
    await eventually(() => receiver!.events().length === 1, "one event");
    expect(fake.events().map((e) => [e.delivered, e.attempts])).toEqual([
      [false, 0],
      [true, 1],
    ]);
    expect((receiver.events()[0]!.data.object as Stripe.Refund).amount).toBe(200);
  });
});
