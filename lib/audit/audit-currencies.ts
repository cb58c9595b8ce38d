// The currencies of the orders and refund proposals a list of audit events names, for the events that
// record an amount without its currency: refund.executed names its order, approval.auto_approved its
// proposal (their inputs are hashed into the chain as written, so the currency is looked up, not
// added). One statement for the whole list, none when no event needs it.
import { db as defaultDb, Prisma, type Db } from "../db";

export interface TCurrencyEvent {
  action: string;
  subjectId: string | null;
  inputs: unknown;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function wanted(events: readonly TCurrencyEvent[]): { orderIds: string[]; proposalIds: string[] } {
  const orderIds = new Set<string>();
  const proposalIds = new Set<string>();
  for (const e of events) {
    const inputs = (e.inputs && typeof e.inputs === "object" ? e.inputs : {}) as Record<string, unknown>;
    if (typeof inputs.amountCents !== "number" || typeof inputs.currency === "string") continue;
    if (e.action === "refund.executed" && typeof inputs.orderId === "string") orderIds.add(inputs.orderId);
    if (e.action === "approval.auto_approved" && e.subjectId && UUID.test(e.subjectId)) proposalIds.add(e.subjectId);
  }
  return { orderIds: [...orderIds], proposalIds: [...proposalIds] };
}

/** Currency by order id and by proposal id. */
export async function loadAuditCurrencies(input: { events: readonly TCurrencyEvent[]; client?: Db }): Promise<Map<string, string>> {
  const { orderIds, proposalIds } = wanted(input.events);
  if (orderIds.length === 0 && proposalIds.length === 0) return new Map();
  const rows = await (input.client ?? defaultDb()).$queryRaw<{ id: string; currency: string }[]>(Prisma.sql`
    SELECT o."id", o."currency" FROM "Order" o WHERE o."id" = ANY(${orderIds}::text[])
    UNION ALL
    SELECT p."id"::text, p."currency" FROM "RefundProposal" p WHERE p."id" = ANY(${proposalIds}::uuid[])`);
  return new Map(rows.map((r) => [r.id, r.currency]));
}
