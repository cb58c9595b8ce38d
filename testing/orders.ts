// Deliveries to the orders API as a shop's system sends them: a customer and a delivered tablet order,
// any field overridden (undefined drops it from the JSON).

/** PUT /api/customers/{id}'s body. */
export function customerBody(n: number | string, overrides: Record<string, unknown> = {}) {
  return { email: `shopper-${n}@example.net`, name: `Shopper ${n}`, ...overrides };
}

/** PUT /api/orders/{id}'s body: 79.00 USD, delivered 12 days ago, no refunds unless told. */
export function orderBody(customerId: string, overrides: Record<string, unknown> = {}) {
  return {
    customerId,
    item: "Aurora 10-inch tablet",
    amountCents: 7_900,
    currency: "USD",
    region: "US",
    category: "electronics",
    placedAt: new Date(Date.now() - 15 * 86_400_000).toISOString(),
    deliveredAt: new Date(Date.now() - 12 * 86_400_000).toISOString(),
    paymentReference: "pi_3Q0000000000000000000000",
    ...overrides,
  };
}
