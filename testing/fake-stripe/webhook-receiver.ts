// A webhook endpoint for the tests, over real HTTP: it checks each delivery with the official
// client's `stripe.webhooks.constructEvent` (as the app's endpoint will) and keeps what it got.
// `answer` picks the status for each delivery, so a test can refuse some and see them come again.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

export interface TDelivery {
  at: number;
  verified: boolean;
  event?: Stripe.Event;
  error?: string;
}

export interface TWebhookReceiver {
  url: string;
  deliveries: TDelivery[];
  /** The events whose signature verified, in the order they arrived (a retried event appears once per attempt). */
  events(): Stripe.Event[];
  close(): Promise<void>;
}

const verifier = new Stripe("sk_test_unused");

export async function startWebhookReceiver(
  secret: string,
  answer: (delivery: TDelivery, index: number) => number = (d) => (d.verified ? 200 : 400),
): Promise<TWebhookReceiver> {
  const deliveries: TDelivery[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (c: Buffer) => chunks.push(c));
    request.on("end", () => {
      const raw = Buffer.concat(chunks);
      let delivery: TDelivery;
      try {
        const event = verifier.webhooks.constructEvent(raw, String(request.headers["stripe-signature"] ?? ""), secret);
        delivery = { at: Date.now(), verified: true, event };
      } catch (error) {
        delivery = { at: Date.now(), verified: false, error: (error as Error).message };
      }
      deliveries.push(delivery);
      response.writeHead(answer(delivery, deliveries.length - 1)).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks/stripe`,
    deliveries,
    events: () => deliveries.flatMap((d) => (d.event ? [d.event] : [])),
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Waits until `check` holds, polling; fails with `what` after `ms`. */
export async function eventually(check: () => boolean, what: string, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
