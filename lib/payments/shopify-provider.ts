// Refunds in a Shopify shop, through the Admin GraphQL API's refundCreate. From API version 2026-04
// the mutation must carry @idempotent(key:): the ledger row's key – derived from the approval – as
// that key makes every retry of one approved refund (after a timeout, a lost answer, a crash between
// the call and our record) answer with the refund already made, and another input under the same key
// is refused. The refund carries the note `countersign:<key>` (countersignRefundNote), so that the
// order source does not count it again as a refund made in the shop, and so that the refund can be
// found on its order by the key alone: before asking to refund, the order is read, and a refund that
// already carries the key's note is the answer – the lookup the reconciliation relies on should the
// shop have forgotten the key.
//
// A Shopify refund's state is its REFUND transactions' status at the payment gateway: SUCCESS is
// succeeded; FAILURE or ERROR is failed (with the gateway's error code as our reason); PENDING,
// AWAITING_RESPONSE or UNKNOWN is pending.
import { refundFailureReason, type TRefundFailureReason } from "../contracts/reason-codes";
import { shopifyGraphql, type TShopifyConfig } from "../orders/shopify/admin-client";
import { countersignRefundNote } from "../orders/shopify/shopify-source";
import { RefundRefused, type TProviderRefund, type TRefundProvider, type TRefundRequest } from "./refund-provider";

const REFUND_FIELDS = `
fragment CountersignRefund on Refund {
  id
  note
  transactions(first: 10) { nodes { kind status errorCode } }
}`;

const ORDER_FOR_REFUND = `query CountersignOrderForRefund($id: ID!) {
  order(id: $id) { id paymentGatewayNames refunds(first: 100) { ...CountersignRefund } }
}
${REFUND_FIELDS}`;

const REFUND_BY_ID = `query CountersignRefundById($id: ID!) { refund(id: $id) { ...CountersignRefund } }
${REFUND_FIELDS}`;

const REFUND_CREATE = `mutation CountersignRefundCreate($input: RefundInput!, $key: String!) {
  refundCreate(input: $input) @idempotent(key: $key) {
    refund { ...CountersignRefund }
    userErrors { field message }
  }
}
${REFUND_FIELDS}`;

type TShopRefund = {
  id: string;
  note: string | null;
  transactions: { nodes: { kind: string; status: string; errorCode: string | null }[] };
};

/** Shopify's transaction error codes, as our failure reasons; any other is `unknown`. */
const ERROR_REASONS: Record<string, TRefundFailureReason> = {
  CARD_DECLINED: "declined",
  CALL_ISSUER: "declined",
  PICK_UP_CARD: "lost_or_stolen_card",
  EXPIRED_CARD: "expired_or_canceled_card",
};

/** A Shopify refund as the ledger records it. */
export function refundFromShopify(refund: TShopRefund): TProviderRefund {
  const transactions = refund.transactions.nodes.filter((t) => t.kind === "REFUND");
  const failed = transactions.find((t) => t.status === "FAILURE" || t.status === "ERROR");
  if (transactions.length > 0 && transactions.every((t) => t.status === "SUCCESS"))
    return { id: refund.id, state: "succeeded", failureReason: null };
  if (failed) return { id: refund.id, state: "failed", failureReason: ERROR_REASONS[failed.errorCode ?? ""] ?? refundFailureReason(null) };
  return { id: refund.id, state: "pending", failureReason: null };
}

/** Cents as the decimal Shopify reads ("79.00"). */
function decimal(cents: number): string {
  return `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

/**
 * Refunds through the shop. The order is the request's payment reference: its gid
 * (gid://shopify/Order/…), as the order source records it on the order.
 */
export function shopifyProvider(config: TShopifyConfig): TRefundProvider {
  return {
    name: "shopify",
    firstState: "requested",
    async createRefund(request: TRefundRequest) {
      const orderId = request.paymentReference;
      if (!orderId?.startsWith("gid://shopify/Order/"))
        throw new RefundRefused("payment_reference_missing", "the order names no Shopify order to refund");
      const read = await shopifyGraphql<{ order: { paymentGatewayNames: string[]; refunds: TShopRefund[] } | null }>(
        config,
        ORDER_FOR_REFUND,
        { id: orderId },
      );
      if (!read.order) throw new RefundRefused("provider_refused", `the shop has no order ${orderId}`);
      const note = countersignRefundNote(request.idempotencyKey);
      // Made already under this key (its answer lost, or the shop's memory of the key gone): that refund.
      const made = read.order.refunds.find((r) => r.note === note);
      if (made) return refundFromShopify(made);
      const input = {
        orderId,
        note,
        notify: false,
        transactions: [
          { orderId, gateway: read.order.paymentGatewayNames[0] ?? "manual", kind: "REFUND", amount: decimal(request.amountCents) },
        ],
      };
      const created = await shopifyGraphql<{
        refundCreate: { refund: TShopRefund | null; userErrors: { field: string[] | null; message: string }[] } | null;
      }>(config, REFUND_CREATE, { input, key: request.idempotencyKey });
      const payload = created.refundCreate;
      if (!payload?.refund) {
        const why = payload?.userErrors.map((e) => `${(e.field ?? []).join(".")}: ${e.message}`).join("; ") || "no refund made";
        throw new RefundRefused("provider_refused", `the shop refused the refund: ${why}`);
      }
      return refundFromShopify(payload.refund);
    },
    async readRefund(id: string) {
      const read = await shopifyGraphql<{ refund: TShopRefund | null }>(config, REFUND_BY_ID, { id });
      if (!read.refund) throw new Error(`the shop has no refund ${id}`);
      return refundFromShopify(read.refund);
    },
  };
}
