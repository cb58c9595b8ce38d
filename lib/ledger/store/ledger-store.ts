// The ledger store: the only code that writes LedgerEntry. Its one writer is the SQL function
// countersign_write_refund (migration 20261124060000), and this is its only caller: it locks the
// order, then, in a fresh snapshot, sums the refunds so far and – only when the caller found nothing
// standing in the way and the refund still fits – appends the audit event and then the ledger row.
// Whether a row was written, and what stood in the way if not, comes back with the ledger's state.
import { preparedSql, type TSqlTx } from "../../db/driver";

const WRITE_IF_ROOM = preparedSql(`
  SELECT "existing", "refunded"::text, "created"
  FROM countersign_write_refund($1::text, $2::text, $3::int, $4::int, $5::boolean, $6::jsonb, $7::uuid, $8::text, $9::text, $10::text)`);

export interface TLedgerWrite {
  /** The entry already written under this key (an execution that ran before), or null. */
  existing: string | null;
  /** Cents refunded on the order so far, this write not counted. */
  refunded: string;
  /** The entry written now, or null when nothing was. */
  created: string | null;
}

/** Writes the refund's ledger row and its audit event, if `allowed` and it still fits the order. */
export async function writeRefundIfRoom(
  tx: TSqlTx,
  w: {
    idempotencyKey: string;
    orderId: string;
    amountCents: number;
    orderCents: number;
    allowed: boolean;
    /** The audit event's argument (auditAppendArgument). */
    audit: string;
    approvalRequestId: string;
    currency: string | null;
    actor: { type: string; id: string };
  },
): Promise<TLedgerWrite> {
  const [row] = await tx.rows<TLedgerWrite>(WRITE_IF_ROOM, [
    w.idempotencyKey,
    w.orderId,
    w.amountCents,
    w.orderCents,
    w.allowed,
    w.audit,
    w.approvalRequestId,
    w.currency,
    w.actor.type,
    w.actor.id,
  ]);
  return row!;
}
