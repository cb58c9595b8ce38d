-- The refund executor's write as one statement, so that an execution needs no transaction of its own
-- (no BEGIN, no COMMIT: two round trips a refund instead of four). It locks the order, then – in a
-- statement of its own, whose snapshot is taken after the lock was granted (a VOLATILE function in READ
-- COMMITTED takes a fresh snapshot for each statement it runs) – reads the ledger's state: the row this
-- key already wrote, and the order's refunds so far, every one committed while it waited included.
-- Only when the caller found nothing in the way (may_write) and the ledger leaves room does it append
-- the audit event and then write the ledger row, both in the caller's transaction: the event is never
-- missing from a commit that holds the row. The checks on the approval stay in the application
-- (lib/ledger/execute-approved-refund.ts); the rules that need the lock are kept here.
CREATE FUNCTION countersign_write_refund(
  idempotency_key text, order_id text, amount_cents integer, order_cents integer, may_write boolean,
  events jsonb, approval_id uuid, refund_currency text, actor_type text, actor_id text,
  OUT existing text, OUT refunded bigint, OUT created text
) LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM 1 FROM "Order" WHERE "id" = order_id FOR UPDATE;
  SELECT e."id"::text INTO existing FROM "LedgerEntry" e WHERE e."idempotencyKey" = idempotency_key;
  SELECT coalesce(sum(e."amountCents"), 0) INTO refunded FROM "LedgerEntry" e WHERE e."orderId" = order_id;
  IF may_write AND existing IS NULL AND refunded + amount_cents <= order_cents THEN
    PERFORM countersign_append_audit(events);
    INSERT INTO "LedgerEntry" ("id", "idempotencyKey", "orderId", "approvalRequestId", "amountCents", "currency", "kind", "actorType", "actorId")
      VALUES (gen_random_uuid(), idempotency_key, order_id, approval_id, amount_cents, refund_currency, 'refund', actor_type, actor_id)
      RETURNING "id"::text INTO created;
  END IF;
END $$;
