// A Shopify order as the Admin GraphQL API gives it, the queries that read it, and what the app keeps
// of it. Money is a MoneyBag: the amount in the shop's currency (shopMoney) as a decimal string.
import type { TCustomerWrite, TExternalRefundWrite, TOrderWrite } from "../order-store";

const ORDER_FIELDS = `
fragment CountersignOrder on Order {
  id
  name
  email
  createdAt
  processedAt
  totalPriceSet { shopMoney { amount currencyCode } }
  totalRefundedSet { shopMoney { amount currencyCode } }
  lineItems(first: 1) { nodes { title product { productType } } }
  fulfillments(first: 10) { deliveredAt }
  shippingAddress { countryCodeV2 }
  customer { id displayName defaultEmailAddress { emailAddress } }
  refunds(first: 100) { id createdAt note totalRefundedSet { shopMoney { amount currencyCode } } }
  paymentGatewayNames
}`;

export const ORDER_BY_ID = `query CountersignOrderById($id: ID!) { order(id: $id) { ...CountersignOrder } }
${ORDER_FIELDS}`;

export const ORDERS_BY_NAME = `query CountersignOrderByName($query: String!) { orders(first: 5, query: $query) { nodes { ...CountersignOrder } } }
${ORDER_FIELDS}`;

type TMoneyBag = { shopMoney: { amount: string; currencyCode: string } };

export interface TShopifyOrder {
  id: string;
  name: string;
  email: string | null;
  createdAt: string;
  processedAt: string | null;
  totalPriceSet: TMoneyBag;
  totalRefundedSet: TMoneyBag;
  lineItems: { nodes: { title: string; product: { productType: string | null } | null }[] };
  fulfillments: { deliveredAt: string | null }[];
  shippingAddress: { countryCodeV2: string | null } | null;
  customer: { id: string; displayName: string; defaultEmailAddress: { emailAddress: string | null } | null } | null;
  refunds: { id: string; createdAt: string | null; note: string | null; totalRefundedSet: TMoneyBag }[];
  paymentGatewayNames: string[];
}

/** "79.00" → 7900: a decimal amount in cents, exactly (no floating point); anything else is refused. */
export function minorUnits(amount: string): number {
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(amount);
  if (!m) throw new Error(`the shop gave an amount the app cannot read: ${JSON.stringify(amount)}`);
  return Number(m[1]) * 100 + Number((m[2] ?? "0").padEnd(2, "0"));
}

/** A product type as a category word: "Consumer Electronics" → "consumer-electronics"; none: "general". */
function categoryOf(productType: string | null | undefined): string {
  const slug = (productType ?? "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40);
  return slug || "general";
}

/** What the app keeps of a shop order: the order, its customer, and the refunds made in the shop (not the app's own, noted with `ourNotePrefix`). */
export function toOrderFacts(
  shop: TShopifyOrder,
  ourNotePrefix: string,
): { order: Omit<TOrderWrite, "customerId" | "sourceReadAt">; customer: TCustomerWrite; refunds: TExternalRefundWrite[] } {
  const currency = shop.totalPriceSet.shopMoney.currencyCode;
  const email = shop.customer?.defaultEmailAddress?.emailAddress ?? shop.email;
  if (!email) throw new Error(`the shop's order ${shop.name} has no customer email`);
  const delivered = shop.fulfillments
    .map((f) => f.deliveredAt)
    .filter((d): d is string => d !== null)
    .sort();
  const line = shop.lineItems.nodes[0];
  return {
    order: {
      id: shop.name,
      item: line?.title ?? shop.name,
      amountCents: minorUnits(shop.totalPriceSet.shopMoney.amount),
      currency,
      // The shop's shipping country; an order shipped nowhere (a digital good) counts as the policy's home region.
      region: shop.shippingAddress?.countryCodeV2 ?? "US",
      category: categoryOf(line?.product?.productType),
      placedAt: new Date(shop.processedAt ?? shop.createdAt),
      deliveredAt: delivered.length ? new Date(delivered[delivered.length - 1]!) : null,
      // What a refund in the shop is made against (refundCreate's orderId): the shop's own id for the order.
      paymentReference: shop.id,
    },
    customer: {
      id: shop.customer?.id ?? `shopify-guest:${email.toLowerCase()}`,
      email,
      name: shop.customer?.displayName ?? email,
    },
    refunds: shop.refunds
      .filter((r) => !(r.note ?? "").startsWith(ourNotePrefix))
      .map((r) => ({
        id: r.id,
        amountCents: minorUnits(r.totalRefundedSet.shopMoney.amount),
        at: new Date(r.createdAt ?? shop.createdAt),
        source: "shopify",
      }))
      .filter((r) => r.amountCents > 0),
  };
}
