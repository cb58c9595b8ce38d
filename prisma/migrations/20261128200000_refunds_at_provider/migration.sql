-- Refunds executed at a payment provider. A ledger row is still written once per approved operation
-- (the recovery point, before the provider is called) and never removed; what may change on it now is
-- only what the provider tells us: its refund id (set once), the refund's state (forward only) and the
-- provider's reason when the refund failed or was canceled. Rows written before this migration were
-- the whole effect (no provider): they are `ledger-only` and `succeeded`.
CREATE TYPE "RefundState" AS ENUM ('requested', 'pending', 'requires_action', 'succeeded', 'failed', 'canceled');

ALTER TABLE "LedgerEntry"
  ADD COLUMN "provider" TEXT NOT NULL DEFAULT 'ledger-only',
  ADD COLUMN "providerRefundId" TEXT,
  ADD COLUMN "state" "RefundState" NOT NULL DEFAULT 'succeeded',
  ADD COLUMN "failureReason" TEXT,
  ADD COLUMN "stateChangedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

CREATE UNIQUE INDEX "LedgerEntry_provider_providerRefundId_key" ON "LedgerEntry"("provider", "providerRefundId");
-- The reconciliation's scan: rows whose refund is not final yet.
CREATE INDEX "LedgerEntry_open_state_idx" ON "LedgerEntry"("stateChangedAt") WHERE "state" IN ('requested', 'pending', 'requires_action');

-- The order's payment at the provider (a Stripe PaymentIntent id): what a refund is made against.
ALTER TABLE "Order" ADD COLUMN IF NOT EXISTS "paymentReference" TEXT;

-- Signed provider events, each taken once: a replayed event id changes nothing.
CREATE TABLE "PaymentEvent" (
    "id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "providerRefundId" TEXT,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "PaymentEvent_pkey" PRIMARY KEY ("provider", "id")
);

-- Whether a refund may move from one state to another: forward only. `requested` (written before the
-- call) may become anything the provider reports; pending and requires_action may alternate (the
-- provider asks for action, then processes); a succeeded refund may still fail (card refunds can
-- fail days later); failed and canceled are final.
CREATE FUNCTION countersign_refund_state_may_move(old_state "RefundState", new_state "RefundState") RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT old_state = new_state
      OR old_state = 'requested'
      OR (old_state IN ('pending', 'requires_action') AND new_state IN ('pending', 'requires_action', 'succeeded', 'failed', 'canceled'))
      OR (old_state = 'succeeded' AND new_state = 'failed')
$$;

-- The ledger's guard, replacing the plain append-only refusal: no row is removed, and an update may
-- change only the provider's columns, forward only. Everything else a row says stays as written.
CREATE FUNCTION countersign_guard_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'UPDATE' THEN
    RAISE EXCEPTION 'append_only: % on "%" is refused', TG_OP, TG_TABLE_NAME USING ERRCODE = '42501';
  END IF;
  IF (NEW."id", NEW."idempotencyKey", NEW."orderId", NEW."approvalRequestId", NEW."amountCents", NEW."currency", NEW."kind",
      NEW."actorType", NEW."actorId", NEW."createdAt", NEW."txid", NEW."provider")
     IS DISTINCT FROM
     (OLD."id", OLD."idempotencyKey", OLD."orderId", OLD."approvalRequestId", OLD."amountCents", OLD."currency", OLD."kind",
      OLD."actorType", OLD."actorId", OLD."createdAt", OLD."txid", OLD."provider") THEN
    RAISE EXCEPTION 'append_only: UPDATE on "LedgerEntry" may change only the provider''s state' USING ERRCODE = '42501';
  END IF;
  IF OLD."providerRefundId" IS NOT NULL AND NEW."providerRefundId" IS DISTINCT FROM OLD."providerRefundId" THEN
    RAISE EXCEPTION 'append_only: a ledger row''s provider refund id is set once' USING ERRCODE = '42501';
  END IF;
  IF NOT countersign_refund_state_may_move(OLD."state", NEW."state") THEN
    RAISE EXCEPTION 'append_only: a refund''s state moves forward only (% to %)', OLD."state", NEW."state" USING ERRCODE = '42501';
  END IF;
  IF NEW."failureReason" IS DISTINCT FROM OLD."failureReason" AND NEW."state" NOT IN ('failed', 'canceled') THEN
    RAISE EXCEPTION 'append_only: a failure reason comes only with a failed or canceled refund' USING ERRCODE = '42501';
  END IF;
  RETURN NEW;
END $$;

DROP TRIGGER "LedgerEntry_append_only" ON "LedgerEntry";
CREATE TRIGGER "LedgerEntry_append_only" BEFORE UPDATE OR DELETE ON "LedgerEntry"
  FOR EACH ROW EXECUTE FUNCTION countersign_guard_ledger();

-- The executor's write (20261124060000) with the provider and the first state: `succeeded` when the
-- ledger is the whole effect, `requested` before a provider is called. Refunds that failed or were
-- canceled at the provider moved no money: they do not count against the order (the same sum as
-- refundedCentsSql in lib/orders/refund-facts.ts).
DROP FUNCTION countersign_write_refund(text, text, integer, integer, boolean, jsonb, uuid, text, text, text);
CREATE FUNCTION countersign_write_refund(
  idempotency_key text, order_id text, amount_cents integer, order_cents integer, may_write boolean,
  events jsonb, approval_id uuid, refund_currency text, actor_type text, actor_id text,
  refund_provider text, first_state "RefundState",
  OUT existing text, OUT refunded bigint, OUT created text
) LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM 1 FROM "Order" WHERE "id" = order_id FOR UPDATE;
  SELECT e."id"::text INTO existing FROM "LedgerEntry" e WHERE e."idempotencyKey" = idempotency_key;
  -- What the order has had refunded (lib/orders/refund-facts.ts, refundedCentsSql): the ledger's
  -- refunds that moved or may move money, and those its source reports as made outside the app.
  SELECT (SELECT coalesce(sum(e."amountCents"), 0) FROM "LedgerEntry" e
           WHERE e."orderId" = order_id AND e."state" NOT IN ('failed', 'canceled'))
       + (SELECT coalesce(sum(x."amountCents"), 0) FROM "ExternalRefund" x WHERE x."orderId" = order_id)
    INTO refunded;
  IF may_write AND existing IS NULL AND refunded + amount_cents <= order_cents THEN
    PERFORM countersign_append_audit(events);
    INSERT INTO "LedgerEntry" ("id", "idempotencyKey", "orderId", "approvalRequestId", "amountCents", "currency", "kind", "actorType", "actorId", "provider", "state")
      VALUES (gen_random_uuid(), idempotency_key, order_id, approval_id, amount_cents, refund_currency, 'refund', actor_type, actor_id, refund_provider, first_state)
      RETURNING "id"::text INTO created;
  END IF;
END $$;

-- What the provider reported, on a ledger row: its refund id (once), the state (forward only, as the
-- guard above enforces) and the reason, with the audit event appended first – only when something
-- moved. The app's role may add ledger rows but not change them (lib/db/privileges.ts); this function,
-- running as the ledger's owner, is the one way it changes the provider's columns. Answers the state
-- before and after (equal: nothing moved, a stale or repeated report).
CREATE FUNCTION countersign_move_refund(
  entry_id uuid, provider_refund_id text, new_state "RefundState", failure_reason text, events jsonb,
  OUT before_state "RefundState", OUT after_state "RefundState"
) LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
  SELECT e."state" INTO before_state FROM "LedgerEntry" e WHERE e."id" = entry_id FOR UPDATE;
  IF before_state IS NULL THEN
    RETURN;
  END IF;
  after_state := before_state;
  IF before_state <> new_state AND countersign_refund_state_may_move(before_state, new_state) THEN
    PERFORM countersign_append_audit(events);
    UPDATE "LedgerEntry" SET
      "providerRefundId" = coalesce("providerRefundId", provider_refund_id),
      "state" = new_state,
      "failureReason" = CASE WHEN new_state IN ('failed', 'canceled') THEN failure_reason ELSE "failureReason" END,
      "stateChangedAt" = CURRENT_TIMESTAMP
    WHERE "id" = entry_id;
    after_state := new_state;
  ELSIF provider_refund_id IS NOT NULL THEN
    -- The same state with the provider's id first learned (a pending refund's create answer).
    UPDATE "LedgerEntry" SET "providerRefundId" = provider_refund_id WHERE "id" = entry_id AND "providerRefundId" IS NULL;
  END IF;
END $$;

-- The reconciliation of refunds at the payment provider (lib/jobs/definitions/reconcile-payments.ts).
SELECT pgboss.create_queue('reconcile-payments', '{"policy":"standard"}');
