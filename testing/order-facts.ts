// The order facts a run's state holds, as the pure tests of the agent's steps and transitions use
// them: 79.00 USD, 19.00 already refunded, so 60.00 still refundable.
import type { TOrderFacts } from "../lib/agent/state";

export const ORDER_FACTS: TOrderFacts = {
  id: "ORD-1",
  item: "tablet",
  category: "electronics",
  amountCents: 7900,
  currency: "USD",
  deliveredAt: null,
  daysSinceDelivery: 3,
  refundedCents: 1900,
  refundableCents: 6000,
  customerName: "Ada",
  customerFlagged: false,
};
