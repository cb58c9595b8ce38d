// What the fake Stripe account holds: succeeded payments (a PaymentIntent and its charge) and the
// refunds made against them, with the rules Stripe applies to them. A refund can never take more than
// what remains of its charge; a failed or canceled refund gives its amount back. Every status change
// is told to `onChange`, which turns it into events.
import { randomBytes } from "node:crypto";
import type Stripe from "stripe";
import { invalidParam, invalidRequest, money, notFound } from "./errors";
import type { TFormObject, TFormValue } from "./form";

export type TFakeRefundStatus = "pending" | "requires_action" | "succeeded" | "failed" | "canceled";
export const REFUND_STATUSES = [
  "pending",
  "requires_action",
  "succeeded",
  "failed",
  "canceled",
] as const satisfies readonly TFakeRefundStatus[];

const REASONS = ["duplicate", "fraudulent", "requested_by_customer"] as const;
/** Statuses whose amount no longer counts against the charge. */
const RELEASED: readonly string[] = ["failed", "canceled"];
/** Stripe lets only these be canceled. */
const CANCELABLE: readonly string[] = ["pending", "requires_action"];

export interface TPayment {
  id: string;
  chargeId: string;
  amount: number;
  currency: string;
}

export type TRefundEventType = "refund.created" | "refund.updated" | "refund.failed";

export interface TRefundChange {
  type: TRefundEventType;
  refund: Stripe.Refund;
  previousAttributes?: Partial<Stripe.Refund>;
  /** The API request that caused it; none for the moves the fake makes on its own. */
  request?: { id: string; idempotencyKey: string | null };
}

/** A refund that should report succeeded and then fail (the fault `fail_later`). */
export interface TFailLater {
  afterMs: number;
  reason: string;
}

export interface TStoreOptions {
  settleAfterMs: number;
  nextFailLater: () => TFailLater | undefined;
  onChange: (change: TRefundChange) => void;
}

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export function stripeId(prefix: string): string {
  return `${prefix}_${[...randomBytes(24)].map((b) => ALPHABET[b % ALPHABET.length]).join("")}`;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
const copy = (refund: Stripe.Refund): Stripe.Refund => structuredClone(refund);

export class FakeStripeStore {
  private readonly payments = new Map<string, TPayment>();
  private readonly byCharge = new Map<string, TPayment>();
  private readonly held = new Map<string, Stripe.Refund>();
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(private readonly options: TStoreOptions) {}

  addPaymentIntent(p: { amount: number; currency: string; id?: string }): TPayment {
    const payment = { id: p.id ?? stripeId("pi"), chargeId: stripeId("ch"), amount: p.amount, currency: p.currency.toLowerCase() };
    this.payments.set(payment.id, payment);
    this.byCharge.set(payment.chargeId, payment);
    return { ...payment };
  }

  /** Oldest first, copies: the caller cannot change what the fake holds. */
  refunds(): Stripe.Refund[] {
    return [...this.held.values()].map(copy);
  }

  retrieve(id: string): Stripe.Refund {
    return copy(this.refund(id));
  }

  createRefund(params: TFormObject, request: TRefundChange["request"]): Stripe.Refund {
    const payment = this.paymentFor(params);
    const requested = params.amount === undefined ? undefined : positiveInteger(params.amount, "amount");
    const reason = params.reason === undefined ? null : oneOf(params.reason, REASONS, "reason");
    const metadata = params.metadata === undefined ? {} : stringMap(params.metadata, "metadata");
    const remaining = this.remaining(payment);
    if (remaining === 0) throw invalidRequest(`Charge ${payment.chargeId} has already been refunded.`, "charge_already_refunded");
    const amount = requested ?? remaining;
    if (amount > remaining) {
      const message = `Refund amount (${money(amount, payment.currency)}) is greater than unrefunded amount on charge (${money(remaining, payment.currency)})`;
      throw invalidRequest(message, "amount_too_large", "amount");
    }
    const failLater = this.options.nextFailLater();
    const settleNow = failLater !== undefined || this.options.settleAfterMs <= 0;
    const refund = this.newRefund(payment, amount, reason, metadata, settleNow ? "succeeded" : "pending");
    this.held.set(refund.id, refund);
    this.options.onChange({ type: "refund.created", refund: copy(refund), request });
    if (failLater) this.schedule(refund.id, failLater.afterMs, "failed", failLater.reason);
    else if (!settleNow) this.schedule(refund.id, this.options.settleAfterMs, "succeeded");
    return copy(refund);
  }

  list(query: URLSearchParams): Stripe.ApiList<Stripe.Refund> {
    const limit = query.has("limit") ? positiveInteger(query.get("limit")!, "limit") : 10;
    if (limit > 100) throw invalidParam("This value must be less than or equal to 100.", "parameter_invalid_integer", "limit");
    const paymentIntent = query.get("payment_intent");
    const charge = query.get("charge");
    if (paymentIntent && !this.payments.has(paymentIntent)) throw notFound("payment_intent", paymentIntent, "payment_intent");
    if (charge && !this.byCharge.has(charge)) throw notFound("charge", charge, "charge");
    // Newest first, as Stripe lists; ties in `created` keep creation order reversed.
    const all = [...this.held.values()]
      .reverse()
      .filter((r) => (!paymentIntent || r.payment_intent === paymentIntent) && (!charge || r.charge === charge));
    return { object: "list", url: "/v1/refunds", ...page(all, limit, query) };
  }

  cancel(id: string, request: TRefundChange["request"]): Stripe.Refund {
    const refund = this.refund(id);
    if (!CANCELABLE.includes(refund.status ?? "")) {
      throw invalidRequest(`You can only cancel a refund whose status is pending or requires_action; this one is ${refund.status}.`);
    }
    this.move(refund, "canceled", undefined, request);
    return copy(refund);
  }

  /** Moves a refund now, as the bank or Stripe would (the control API's `setRefundStatus`). */
  setStatus(id: string, status: TFakeRefundStatus, failureReason?: string): Stripe.Refund {
    const refund = this.refund(id);
    this.move(refund, status, status === "failed" ? (failureReason ?? "unknown") : undefined);
    return copy(refund);
  }

  stop(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private refund(id: string): Stripe.Refund {
    const refund = this.held.get(id);
    if (!refund) throw notFound("refund", id);
    return refund;
  }

  private paymentFor(params: TFormObject): TPayment {
    const { payment_intent: pi, charge } = params;
    if (pi === undefined && charge === undefined) {
      throw invalidParam(
        "One of the following params should be provided for this request: payment_intent or charge.",
        "parameter_missing",
        "payment_intent",
      );
    }
    const byIntent = typeof pi === "string" ? this.payments.get(pi) : undefined;
    const byCharge = typeof charge === "string" ? this.byCharge.get(charge) : undefined;
    if (pi !== undefined && !byIntent) throw notFound("payment_intent", String(pi), "payment_intent");
    if (charge !== undefined && !byCharge) throw notFound("charge", String(charge), "charge");
    if (byIntent && byCharge && byIntent !== byCharge) {
      throw invalidParam(`Charge ${byCharge.chargeId} does not belong to PaymentIntent ${byIntent.id}.`, "parameter_invalid", "charge");
    }
    return (byIntent ?? byCharge)!;
  }

  private remaining(payment: TPayment): number {
    const taken = [...this.held.values()]
      .filter((r) => r.charge === payment.chargeId && !RELEASED.includes(r.status ?? ""))
      .reduce((sum, r) => sum + r.amount, 0);
    return payment.amount - taken;
  }

  private newRefund(
    payment: TPayment,
    amount: number,
    reason: Stripe.Refund.Reason | null,
    metadata: Record<string, string>,
    status: TFakeRefundStatus,
  ): Stripe.Refund {
    return {
      id: stripeId("re"),
      object: "refund",
      amount,
      balance_transaction: stripeId("txn"),
      charge: payment.chargeId,
      created: nowSeconds(),
      currency: payment.currency,
      customer: null,
      customer_account: null,
      metadata,
      payment_intent: payment.id,
      payment_method: null,
      reason,
      receipt_number: null,
      source_transfer_reversal: null,
      status,
      transfer_reversal: null,
    };
  }

  private schedule(id: string, afterMs: number, status: TFakeRefundStatus, failureReason?: string): void {
    const timer = setTimeout(() => {
      this.timers.delete(id);
      this.move(this.refund(id), status, failureReason);
    }, afterMs);
    timer.unref();
    this.timers.set(id, timer);
  }

  /** One status change: `refund.updated` with what it was before, and `refund.failed` when it failed. */
  private move(refund: Stripe.Refund, status: TFakeRefundStatus, failureReason?: string, request?: TRefundChange["request"]): void {
    if (refund.status === status) return;
    clearTimeout(this.timers.get(refund.id));
    this.timers.delete(refund.id);
    const previousAttributes: Partial<Stripe.Refund> = { status: refund.status };
    refund.status = status;
    if (failureReason !== undefined) {
      previousAttributes.failure_reason = refund.failure_reason;
      refund.failure_reason = failureReason;
      refund.failure_balance_transaction = stripeId("txn");
    }
    this.options.onChange({ type: "refund.updated", refund: copy(refund), previousAttributes, request });
    if (status === "failed") this.options.onChange({ type: "refund.failed", refund: copy(refund), request });
  }
}

function positiveInteger(value: TFormValue, param: string): number {
  const n = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n <= 0) throw invalidParam(`Invalid positive integer`, "parameter_invalid_integer", param);
  return n;
}

function oneOf<T extends string>(value: TFormValue, allowed: readonly T[], param: string): T {
  if (typeof value === "string" && (allowed as readonly string[]).includes(value)) return value as T;
  throw invalidParam(`Invalid ${param}: must be one of ${allowed.join(", ")}`, "parameter_invalid", param);
}

function stringMap(value: TFormValue, param: string): Record<string, string> {
  // `metadata=` (empty) clears it, as Stripe reads it.
  if (value === "") return {};
  if (typeof value === "string" || Object.values(value).some((v) => typeof v !== "string")) {
    throw invalidParam(`Invalid object`, "parameter_invalid", param);
  }
  return { ...(value as Record<string, string>) };
}

/** Cursor pagination: `starting_after` (older than that id) or `ending_before` (newer than it). */
function page(newestFirst: Stripe.Refund[], limit: number, query: URLSearchParams) {
  const after = query.get("starting_after");
  const before = query.get("ending_before");
  const at = (id: string, param: string) => {
    const i = newestFirst.findIndex((r) => r.id === id);
    if (i < 0) throw notFound("refund", id, param);
    return i;
  };
  if (before) {
    const end = at(before, "ending_before");
    const start = Math.max(0, end - limit);
    return { data: newestFirst.slice(start, end).map(copy), has_more: start > 0 };
  }
  const start = after ? at(after, "starting_after") + 1 : 0;
  return { data: newestFirst.slice(start, start + limit).map(copy), has_more: start + limit < newestFirst.length };
}
