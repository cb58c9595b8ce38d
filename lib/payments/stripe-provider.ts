// Refunds at Stripe, through the official client. Stripe keeps an Idempotency-Key's first answer (24 h):
// the ledger row's key as that header makes every retry of one approved refund – after a timeout, a
// lost answer, a crash between the call and our record – answer with the refund already made.
// The client's own retries are off: the job queue and the reconciliation retry, with the same key.
import Stripe from "stripe";
import { refundFailureReason } from "../contracts/reason-codes";
import { RefundRefused, type TProviderRefund, type TProviderState, type TRefundProvider, type TRefundRequest } from "./refund-provider";

export interface TStripeConnection {
  secretKey: string;
  /** Stripe's API address; null: Stripe's own. */
  apiUrl: string | null;
  timeoutMs?: number;
}

/** The official client for a connection: Stripe itself, or the address configured (a local stand-in). */
export function stripeClient(connection: TStripeConnection): Stripe {
  const url = connection.apiUrl ? new URL(connection.apiUrl) : null;
  return new Stripe(connection.secretKey, {
    maxNetworkRetries: 0,
    timeout: connection.timeoutMs ?? 20_000,
    ...(url
      ? {
          host: url.hostname,
          port: url.port || (url.protocol === "https:" ? "443" : "80"),
          protocol: url.protocol === "https:" ? "https" : "http",
        }
      : {}),
  });
}

const STATES: Record<string, TProviderState> = {
  pending: "pending",
  requires_action: "requires_action",
  succeeded: "succeeded",
  failed: "failed",
  canceled: "canceled",
};

/** A Stripe refund as the ledger records it. */
export function refundFromStripe(refund: Stripe.Refund): TProviderRefund {
  const state = STATES[refund.status ?? "pending"] ?? "pending";
  const failed = state === "failed" || state === "canceled";
  return {
    id: refund.id,
    state,
    failureReason: failed ? (state === "canceled" ? "canceled" : refundFailureReason(refund.failure_reason)) : null,
  };
}

/**
 * Stripe refused the request itself (400 invalid request: more than the charge has left, no such
 * payment): nothing was made. Anything else – a connection error, a 5xx, a 429, a key Stripe does not
 * accept, an idempotency conflict – leaves the outcome unknown or fixable: it is thrown to be retried.
 */
function refusal(error: unknown): RefundRefused | null {
  if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 400 && error.type !== "StripeIdempotencyError")
    return new RefundRefused("provider_refused", `Stripe refused the refund: ${error.code ?? "invalid_request"}: ${error.message}`);
  return null;
}

export function stripeProvider(connection: TStripeConnection): TRefundProvider {
  const stripe = stripeClient(connection);
  return {
    name: "stripe",
    firstState: "requested",
    async createRefund(request: TRefundRequest) {
      const payment = request.paymentReference;
      if (!payment) throw new RefundRefused("payment_reference_missing", "the order names no Stripe payment to refund");
      try {
        const refund = await stripe.refunds.create(
          {
            ...(payment.startsWith("ch_") ? { charge: payment } : { payment_intent: payment }),
            amount: request.amountCents,
            currency: request.currency.toLowerCase(),
            reason: "requested_by_customer",
            metadata: { countersign_approval: request.approvalId },
          },
          { idempotencyKey: request.idempotencyKey },
        );
        return refundFromStripe(refund);
      } catch (error) {
        throw refusal(error) ?? error;
      }
    },
    async readRefund(id: string) {
      return refundFromStripe(await stripe.refunds.retrieve(id));
    },
  };
}

/** The refund events that move a ledger row's state. */
export const STRIPE_REFUND_EVENTS = ["refund.created", "refund.updated", "refund.failed"] as const;

/**
 * A Stripe event verified by the client's own helper: the Stripe-Signature header's HMAC over the raw
 * body with the endpoint's secret, within Stripe's default tolerance (300 s). Throws when it does not
 * verify.
 */
export function verifyStripeEvent(rawBody: string, signatureHeader: string, webhookSecret: string): Stripe.Event {
  return Stripe.webhooks.constructEvent(rawBody, signatureHeader, webhookSecret);
}

/** The refund an event is about, when it is one of STRIPE_REFUND_EVENTS. */
export function refundOfEvent(event: Stripe.Event): Stripe.Refund | null {
  if (!(STRIPE_REFUND_EVENTS as readonly string[]).includes(event.type)) return null;
  const object = event.data.object as { object?: string };
  return object.object === "refund" ? (object as Stripe.Refund) : null;
}
