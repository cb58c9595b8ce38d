// Events as Stripe sends them to a webhook endpoint: a JSON POST signed with the endpoint's secret
// (`Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, what
// `stripe.webhooks.constructEvent` checks), each attempt signed afresh. An endpoint that answers
// anything but 2xx, or nothing within the timeout, gets the event again later, the wait doubling from
// `retryBaseMs` up to `retryMaxMs` (Stripe waits hours; the fake keeps the shape, not the scale).
// Each event is delivered on its own, so – as with Stripe – events may arrive out of order when an
// earlier one is being retried.
import { createHmac } from "node:crypto";
import type Stripe from "stripe";
import { stripeId, type TRefundChange } from "./store";

export interface TEventRecord {
  id: string;
  type: string;
  refundId: string;
  delivered: boolean;
  attempts: number;
}

export interface TOutboxOptions {
  url: string | null;
  secret: string;
  apiVersion: string;
  retryBaseMs: number;
  retryMaxMs: number;
  timeoutMs: number;
}

interface TPending {
  record: TEventRecord;
  body: string;
  timer?: NodeJS.Timeout;
}

/** The header Stripe sends, the same as `stripe.webhooks.generateTestHeaderString` makes. */
export function signatureHeader(body: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const v1 = createHmac("sha256", secret).update(`${timestamp}.${body}`, "utf8").digest("hex");
  return `t=${timestamp},v1=${v1}`;
}

export class EventOutbox {
  private readonly sent: TPending[] = [];
  private readonly inFlight = new Set<AbortController>();
  private stopped = false;

  constructor(private readonly options: TOutboxOptions) {}

  setUrl(url: string | null): void {
    this.options.url = url;
  }

  records(): TEventRecord[] {
    return this.sent.map(({ record }) => ({ ...record }));
  }

  /** Makes the event; an event made while no endpoint is set is recorded and never sent, as with Stripe. */
  publish(change: TRefundChange): void {
    const event = {
      id: stripeId("evt"),
      object: "event",
      api_version: this.options.apiVersion,
      created: Math.floor(Date.now() / 1000),
      data: { object: change.refund, ...(change.previousAttributes ? { previous_attributes: change.previousAttributes } : {}) },
      livemode: false,
      pending_webhooks: this.options.url ? 1 : 0,
      request: { id: change.request?.id ?? null, idempotency_key: change.request?.idempotencyKey ?? null },
      type: change.type,
    } satisfies Omit<Stripe.Event, "data" | "type"> & { data: { object: Stripe.Refund }; type: string };
    const pending: TPending = {
      record: { id: event.id, type: event.type, refundId: change.refund.id, delivered: false, attempts: 0 },
      body: JSON.stringify(event, null, 2),
    };
    this.sent.push(pending);
    if (this.options.url) void this.attempt(pending);
  }

  stop(): void {
    this.stopped = true;
    for (const pending of this.sent) clearTimeout(pending.timer);
    for (const controller of this.inFlight) controller.abort();
  }

  private async attempt(pending: TPending): Promise<void> {
    const url = this.options.url;
    if (this.stopped || !url) return;
    pending.record.attempts += 1;
    if (await this.post(url, pending.body)) {
      pending.record.delivered = true;
      return;
    }
    if (this.stopped) return;
    const wait = Math.min(this.options.retryBaseMs * 2 ** (pending.record.attempts - 1), this.options.retryMaxMs);
    pending.timer = setTimeout(() => void this.attempt(pending), wait);
    pending.timer.unref();
  }

  private async post(url: string, body: string): Promise<boolean> {
    const controller = new AbortController();
    const timeout = setTimeout(() => controller.abort(), this.options.timeoutMs);
    this.inFlight.add(controller);
    try {
      const response = await fetch(url, {
        method: "POST",
        body,
        signal: controller.signal,
        headers: {
          "Content-Type": "application/json; charset=utf-8",
          "User-Agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
          "Stripe-Signature": signatureHeader(body, this.options.secret),
        },
      });
      await response.arrayBuffer();
      return response.status >= 200 && response.status < 300;
    } catch {
      return false;
    } finally {
      clearTimeout(timeout);
      this.inFlight.delete(controller);
    }
  }
}
