// The payment events' store: the only code that writes PaymentEvent. An event is taken once: its id
// is the key, so a replayed delivery (the provider's retry, or someone resending a captured one)
// finds it taken and changes nothing.
import { Prisma, sqlRows } from "../../db";
import type { TSqlTx } from "../../db/driver";

/** Records the event as taken; false when it was taken before. */
export async function takeEvent(
  tx: TSqlTx,
  e: { provider: string; id: string; type: string; providerRefundId: string | null },
): Promise<boolean> {
  const rows = await sqlRows(
    tx,
    Prisma.sql`INSERT INTO "PaymentEvent" ("id", "provider", "type", "providerRefundId") VALUES (${e.id}, ${e.provider}, ${e.type}, ${e.providerRefundId})
               ON CONFLICT ("provider", "id") DO NOTHING RETURNING "id"`,
  );
  return rows.length === 1;
}
