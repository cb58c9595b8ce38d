// The chaos run's counts at the provider (chaos-stripe.ts) against the fake Stripe as a process: one
// refund per approval with a ledger row passes, a second refund for one approval or a refund for an
// approval without a row is named, and a row left pending is open until the reconciliation makes it final.
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDb } from "./db";
import { approvalFor, freshOrder, tabletTicket, user } from "./runs";
import { seedDemo } from "../prisma/seed/demo";
import { decideApproval } from "../lib/approvals/decide-approval";
import { settleApprovedRefund } from "../lib/approvals/settle-refund";
import { PAYMENT_SETTING_KEYS } from "../lib/payments/payment-settings";
import {
  ledgerFigures,
  payOrdersAtFake,
  providerInvariants,
  reconcileUntilFinal,
  startFakeStripeProcess,
  type TFakeStripeProcess,
} from "./chaos-stripe";

const testDb = useTestDb();
let fake: TFakeStripeProcess;
let stripe: Stripe;

beforeAll(async () => {
  const { client } = testDb();
  await seedDemo(client);
  // No webhook endpoint: only the reconciliation learns that a pending refund succeeded.
  fake = await startFakeStripeProcess(0, null);
  const url = new URL(fake.url);
  stripe = new Stripe(fake.env.STRIPE_SECRET_KEY!, { host: url.hostname, port: url.port, protocol: "http", maxNetworkRetries: 0 });
  await client.setting.createMany({
    data: [
      { key: PAYMENT_SETTING_KEYS.provider, value: "stripe" },
      { key: PAYMENT_SETTING_KEYS.stripeSecretKey, value: fake.env.STRIPE_SECRET_KEY! },
      { key: PAYMENT_SETTING_KEYS.stripeApiUrl, value: fake.url },
    ],
  });
});
afterAll(() => fake?.child.kill("SIGKILL"));

/** A 79 USD tablet refund, paid at the fake, approved; settled when `settle`. */
async function refund(settle: boolean) {
  const { client } = testDb();
  const world = await freshOrder(client);
  await payOrdersAtFake(client, fake);
  const request = await approvalFor(client, await tabletTicket(client, world));
  if (!settle)
    return { request, paymentIntent: (await client.order.findUniqueOrThrow({ where: { id: world.orderId } })).paymentReference! };
  await decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, actor: await user(client, "REVIEWER") });
  const settled = await settleApprovedRefund({ approvalId: request.id, client });
  const order = await client.order.findUniqueOrThrow({ where: { id: world.orderId } });
  return { request, settled, paymentIntent: order.paymentReference! };
}

describe(`the chaos run's counts at the provider (${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("one refund for the approval: no violation; the pending row is open until the reconciliation makes it final", async () => {
    const { client } = testDb();
    const { request, settled } = await refund(true);
    expect(settled!.refundState).toBe("pending");
    expect(await providerInvariants(client, fake)).toMatchObject({ refunds: 1, withLedgerRow: 1, wrong: [], untied: 0, strangers: 0 });
    // The fake makes it succeeded after 400 ms; no event tells us.
    await new Promise((r) => setTimeout(r, 800));
    expect((await providerInvariants(client, fake)).disagreeing).toEqual([`${request.id}: ledger pending, provider succeeded`]);
    expect(await ledgerFigures(client)).toMatchObject({ byState: [{ state: "pending", n: 1 }], open: 1, repliesWithoutSucceeded: 0 });

    expect(await reconcileUntilFinal(client, 15_000)).toMatchObject({ open: 0 });
    const after = await ledgerFigures(client);
    expect(after).toMatchObject({ byState: [{ state: "succeeded", n: 1 }], open: 0, finalBy: [{ source: "reconciliation", n: 1 }] });
    // Asked only once the row was 2 s old.
    expect(after.lagMaxMs).toBeGreaterThanOrEqual(2_000);
    expect((await providerInvariants(client, fake)).disagreeing).toEqual([]);
  });

  it("names an approval with a second refund at the provider, and one refunded there without a ledger row", async () => {
    const { client } = testDb();
    const twice = await refund(true);
    // Another payment of the customer's: the refund is tied to the approval by its metadata, not by the payment.
    const other = await fake.control<{ id: string }>("POST", "payment_intents", { amount: 1_000, currency: "usd" });
    await stripe.refunds.create(
      { payment_intent: other.id, amount: 100, metadata: { countersign_approval: twice.request.id } },
      { idempotencyKey: `another-key-${twice.request.id}` },
    );
    const never = await refund(false);
    await stripe.refunds.create({ payment_intent: never.paymentIntent, amount: 100, metadata: { countersign_approval: never.request.id } });
    await stripe.refunds.create({ payment_intent: never.paymentIntent, amount: 100 });

    const counted = await providerInvariants(client, fake);
    expect(counted.wrong).toHaveLength(2);
    expect(counted.wrong).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^${twice.request.id} \\(approved, ledger pending re_\\w+\\): 2 at the provider$`)),
        `${never.request.id} (pending, ledger none): 1 at the provider`,
      ]),
    );
    expect(counted.untied).toBe(1);
  });
});
