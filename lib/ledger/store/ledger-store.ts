// The ledger store: the only code that writes LedgerEntry. Its one writer is the SQL function
// countersign_write_refund (migration 20261124060000), and this is its only caller: it locks the
// order, then, in a fresh snapshot, sums the refunds so far and – only when the caller found nothing
// standing in the way and the refund still fits – appends the audit event and then the ledger row.
// Whether a row was written, and what stood in the way if not, comes back with the ledger's state.
// What the payment provider reports later moves the row's provider columns through the other SQL
// function, countersign_move_refund (migration 20261128200000), forward only.
import { preparedSql, type TSqlTx } from "../../db/driver";
import type { TPaymentProvider, TRefundState } from "../../contracts/reason-codes";

const WRITE_IF_ROOM = preparedSql(`
  SELECT "existing", "refunded"::text, "created"
  FROM countersign_write_refund($1::text, $2::text, $3::int, $4::int, $5::boolean, $6::jsonb, $7::uuid, $8::text, $9::text, $10::text,
                                $11::text, $12::"RefundState")`);

const MOVE_REFUND = preparedSql(`
  SELECT "before_state"::text AS "before", "after_state"::text AS "after"
  FROM countersign_move_refund($1::uuid, $2::text, $3::"RefundState", $4::text, $5::jsonb)`);

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
    /** Where the refund is executed, and the row's first state: `succeeded` when the ledger is the whole effect, `requested` before a provider call. */
    provider: TPaymentProvider;
    state: "requested" | "succeeded";
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
    w.provider,
    w.state,
  ]);
  return row!;
}

export interface TRefundMove {
  /** The state before; null: no such ledger row. */
  before: TRefundState | null;
  /** The state after: equal to `before` when the report moved nothing (stale, repeated, or backwards). */
  after: TRefundState | null;
}

/**
 * Records what the provider reported on a ledger row – its refund id (kept once set), the state and
 * the reason – with its audit event (auditAppendArgument), appended only when the state moves.
 */
export async function moveRefundState(
  tx: TSqlTx,
  m: { entryId: string; providerRefundId: string | null; state: TRefundState; failureReason: string | null; audit: string },
): Promise<TRefundMove> {
  const [row] = await tx.rows<{ before: TRefundState | null; after: TRefundState | null }>(MOVE_REFUND, [
    m.entryId,
    m.providerRefundId,
    m.state,
    m.failureReason,
    m.audit,
  ]);
  return row ?? { before: null, after: null };
}
