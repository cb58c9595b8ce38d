// Small builders for rows the integration tests need. Each returns what it created.
import { randomUUID } from "node:crypto";
import type { PrismaClient } from "../generated/prisma/client";

export async function makeOrder(client: PrismaClient, overrides: { amountCents?: number; flagged?: boolean } = {}) {
  const suffix = randomUUID().slice(0, 8);
  const customer = await client.customer.create({
    data: { id: `CUS-${suffix}`, email: `c-${suffix}@example.net`, name: `Customer ${suffix}`, flagged: overrides.flagged ?? false },
  });
  return client.order.create({
    data: {
      id: `ORD-${suffix}`,
      customerId: customer.id,
      item: "Test tablet",
      category: "electronics",
      amountCents: overrides.amountCents ?? 7900,
      placedAt: new Date(Date.now() - 10 * 86_400_000),
      deliveredAt: new Date(Date.now() - 5 * 86_400_000),
    },
  });
}

export function ledgerRow(orderId: string, idempotencyKey = `key-${randomUUID()}`, amountCents = 1000) {
  return { idempotencyKey, orderId, amountCents, currency: "USD", actorType: "system" };
}
