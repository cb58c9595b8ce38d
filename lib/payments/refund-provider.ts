// Where an approved refund is executed: the provider behind one interface. The settlement
// (lib/approvals/settle-refund.ts) writes the ledger row first (the recovery point), then asks the
// provider with the row's idempotency key – derived from the approval, never chosen here – and records
// what the provider answered. The same key always names the same refund at the provider, so a retry
// after a crash or a lost answer finds the refund already made instead of making a second one.
import type { TPaymentProvider, TRefundFailureReason, TRefundState } from "../contracts/reason-codes";

/** A state the provider reports (`requested` is ours: written before the provider was asked). */
export type TProviderState = Exclude<TRefundState, "requested">;

export interface TProviderRefund {
  /** The provider's refund id (Stripe: re_…). */
  id: string;
  state: TProviderState;
  /** The provider's reason when it failed or was canceled. */
  failureReason: TRefundFailureReason | null;
}

export interface TRefundRequest {
  /** The ledger row's key: the provider's Idempotency-Key. */
  idempotencyKey: string;
  /** The order's payment at the provider; null: nothing to refund against (refused). */
  paymentReference: string | null;
  amountCents: number;
  currency: string;
  approvalId: string;
}

export interface TRefundProvider {
  readonly name: TPaymentProvider;
  /** The ledger row's first state: `succeeded` when the row is the whole effect, `requested` before a call. */
  readonly firstState: "requested" | "succeeded";
  /**
   * Creates the refund, or – the same key again – answers the one created before. Throws
   * RefundRefused when the provider refused the request itself (it will refuse it again: no money
   * moved), any other error when the answer is unknown (a timeout, a 5xx): ask again with the same key.
   */
  createRefund(request: TRefundRequest): Promise<TProviderRefund>;
  /** The refund's state now. */
  readRefund(id: string): Promise<TProviderRefund>;
}

/** The provider refused the refund request itself: nothing was made, and asking again will not make it. */
export class RefundRefused extends Error {
  constructor(
    readonly reason: TRefundFailureReason,
    detail: string,
  ) {
    super(detail);
    this.name = "RefundRefused";
  }
}

/** Today's behaviour: the ledger row is the whole effect, written succeeded; a person moves the money. */
export const LEDGER_ONLY_PROVIDER: TRefundProvider = {
  name: "ledger-only",
  firstState: "succeeded",
  createRefund: () => Promise.reject(new Error("ledger-only: the ledger row is the refund; there is no provider to call")),
  readRefund: () => Promise.reject(new Error("ledger-only: the ledger row is the refund; there is no provider to ask")),
};
