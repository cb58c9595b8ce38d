-- Orders from the systems a team runs: the provider's payment id on an order, when the order was last
-- read from its source, the refunds made outside the app, and the orders API's deliveries by webhook-id.
ALTER TABLE "Order" ADD COLUMN IF NOT EXISTS "paymentReference" TEXT;
ALTER TABLE "Order" ADD COLUMN "sourceReadAt" TIMESTAMP(3);

CREATE TABLE "ExternalRefund" (
    "id" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "amountCents" INTEGER NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "source" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ExternalRefund_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "ExternalRefund_amountCents_positive" CHECK ("amountCents" > 0)
);
CREATE INDEX "ExternalRefund_orderId_idx" ON "ExternalRefund"("orderId");
ALTER TABLE "ExternalRefund" ADD CONSTRAINT "ExternalRefund_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
-- A refund reported is history: never changed or removed (the app's role may only read and add, lib/db/privileges.ts).
CREATE TRIGGER "ExternalRefund_append_only" BEFORE UPDATE OR DELETE ON "ExternalRefund"
  FOR EACH ROW EXECUTE FUNCTION countersign_refuse_change();
CREATE TRIGGER "ExternalRefund_no_truncate" BEFORE TRUNCATE ON "ExternalRefund"
  FOR EACH STATEMENT EXECUTE FUNCTION countersign_refuse_change();

CREATE TABLE "OrderDelivery" (
    "webhookId" TEXT NOT NULL,
    "payloadHash" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "answer" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "OrderDelivery_pkey" PRIMARY KEY ("webhookId")
);

-- The executor's write counts the refunds made outside the app with the ledger's, under the same
-- order lock: the sum is lib/orders/refund-facts.ts's (refundedCentsSql), the ledger's part and the
-- source's part, read in the snapshot taken after the lock was granted.
CREATE OR REPLACE FUNCTION countersign_write_refund(
  idempotency_key text, order_id text, amount_cents integer, order_cents integer, may_write boolean,
  events jsonb, approval_id uuid, refund_currency text, actor_type text, actor_id text,
  OUT existing text, OUT refunded bigint, OUT created text
) LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM 1 FROM "Order" WHERE "id" = order_id FOR UPDATE;
  SELECT e."id"::text INTO existing FROM "LedgerEntry" e WHERE e."idempotencyKey" = idempotency_key;
  SELECT (SELECT coalesce(sum(e."amountCents"), 0) FROM "LedgerEntry" e WHERE e."orderId" = order_id)
       + (SELECT coalesce(sum(x."amountCents"), 0) FROM "ExternalRefund" x WHERE x."orderId" = order_id)
    INTO refunded;
  IF may_write AND existing IS NULL AND refunded + amount_cents <= order_cents THEN
    PERFORM countersign_append_audit(events);
    INSERT INTO "LedgerEntry" ("id", "idempotencyKey", "orderId", "approvalRequestId", "amountCents", "currency", "kind", "actorType", "actorId")
      VALUES (gen_random_uuid(), idempotency_key, order_id, approval_id, amount_cents, refund_currency, 'refund', actor_type, actor_id)
      RETURNING "id"::text INTO created;
  END IF;
END $$;
