// A stateful fake of the Stripe refunds API for tests, reached by the official `stripe` client
// through its own host/port/protocol options. It keeps payments and refunds, answers idempotent
// requests as Stripe does, moves refunds through their statuses over time, sends signed events to a
// webhook endpoint with retries, and fails on request (see README.md for what it fakes and what not).
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { serveApi } from "./api";
import { serveControl } from "./control";
import { FaultQueue, type TFault } from "./faults";
import { IdempotencyKeys } from "./idempotency";
import { FakeStripeStore, type TFakeRefundStatus } from "./store";
import { EventOutbox, type TEventRecord } from "./webhooks";

export type { TFault } from "./faults";
export type { TFakeRefundStatus } from "./store";
export { signatureHeader } from "./webhooks";

export interface TFakeStripeOptions {
  /** 0 (default): any free port on 127.0.0.1. */
  port?: number;
  /** Default "sk_test_fake"; other keys get 401 like Stripe. */
  apiKey?: string;
  /** Where signed events are POSTed (retried with backoff on non-2xx / no answer). */
  webhookUrl?: string | null;
  /** Default "whsec_fake…"; events signed as Stripe does (Stripe-Signature: t=…,v1=…). */
  webhookSecret?: string;
  /** A new refund is "pending" and becomes "succeeded" after this long (default 0: succeeded at once). */
  settleAfterMs?: number;
  /** The first wait before an event is sent again (default 100 ms); it doubles with each attempt. */
  webhookRetryBaseMs?: number;
  /** The longest wait between two attempts (default 5 s). */
  webhookRetryMaxMs?: number;
  /** How long an endpoint has to answer before the attempt counts as failed (default 5 s). */
  webhookTimeoutMs?: number;
}

export interface TFakeStripe {
  readonly host: string;
  readonly port: number;
  readonly protocol: "http";
  readonly apiKey: string;
  readonly webhookSecret: string;
  /** The official client pointed at the fake: new Stripe(apiKey, { host, port, protocol, maxNetworkRetries: 0 }). */
  client(options?: Partial<Stripe.StripeConfig>): Stripe;
  /** A succeeded payment to refund against (a PaymentIntent with its charge); id optional. */
  addPaymentIntent(p: { amount: number; currency: string; id?: string }): { id: string; chargeId: string };
  /** Every refund the fake holds, oldest first (provider-side truth for assertions and chaos counts). */
  refunds(): Stripe.Refund[];
  /** Faults, consumed in order; `match` limits a fault to requests whose path includes it. */
  inject(fault: TFault): void;
  /** Lets every answer a `slow` fault is holding go now; answers how many it let go. */
  release(): number;
  /** Moves a refund's state now (e.g. "failed" with failure_reason, "canceled", "requires_action") and sends its events. */
  setRefundStatus(id: string, status: TFakeRefundStatus, failureReason?: string): void;
  setWebhookUrl(url: string | null): void;
  /** Events sent so far (type, id, delivered yes/no, attempts), oldest first. */
  events(): TEventRecord[];
  stop(): Promise<void>;
}

const HOST = "127.0.0.1";

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (c: Buffer) => chunks.push(c));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

export async function startFakeStripe(options: TFakeStripeOptions = {}): Promise<TFakeStripe> {
  const apiKey = options.apiKey ?? "sk_test_fake";
  const webhookSecret = options.webhookSecret ?? "whsec_fake_0123456789abcdef0123456789abcdef";
  const outbox = new EventOutbox({
    url: options.webhookUrl ?? null,
    secret: webhookSecret,
    apiVersion: Stripe.API_VERSION,
    retryBaseMs: options.webhookRetryBaseMs ?? 100,
    retryMaxMs: options.webhookRetryMaxMs ?? 5_000,
    timeoutMs: options.webhookTimeoutMs ?? 5_000,
  });
  const faults = new FaultQueue();
  const store = new FakeStripeStore({
    settleAfterMs: options.settleAfterMs ?? 0,
    nextFailLater: () => faults.takeFailLater(),
    onChange: (change) => outbox.publish(change),
  });
  const parts = { apiKey, apiVersion: Stripe.API_VERSION, store, faults, keys: new IdempotencyKeys() };

  const server = createServer((request, response) => {
    readBody(request)
      .then((body) =>
        request.url?.startsWith("/_fake/") ? serveControl(fake, request, response, body) : serveApi(parts, request, response, body),
      )
      // A fault of the fake itself: answered, not left to crash the process that a test depends on.
      .catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500, { "Content-Type": "text/plain" });
        response.end(`fake Stripe failed: ${(error as Error).stack ?? String(error)}`);
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, HOST, resolve);
  });
  const { port } = server.address() as AddressInfo;

  const fake: TFakeStripe = {
    host: HOST,
    port,
    protocol: "http",
    apiKey,
    webhookSecret,
    client: (overrides = {}) => new Stripe(apiKey, { host: HOST, port, protocol: "http", maxNetworkRetries: 0, ...overrides }),
    addPaymentIntent: (p) => {
      const { id, chargeId } = store.addPaymentIntent(p);
      return { id, chargeId };
    },
    refunds: () => store.refunds(),
    inject: (fault) => faults.add(fault),
    release: () => faults.release(),
    setRefundStatus: (id, status, failureReason) => void store.setStatus(id, status, failureReason),
    setWebhookUrl: (url) => outbox.setUrl(url),
    events: () => outbox.records(),
    stop: async () => {
      store.stop();
      outbox.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
