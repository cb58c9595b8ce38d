-- Personal data apart from the evidence. Each customer (the data subject) gets a salt of their own:
-- audit events and exports refer to their personal values by HMAC-SHA256 under that salt, never by
-- the values. Erasure overwrites the values in the domain tables and destroys the salt, so the
-- commitments already hashed into the chain can no longer be linked to anyone, while every hashed
-- byte stays as it was.
ALTER TABLE "Customer"
  ADD COLUMN "salt" TEXT DEFAULT encode(sha256(convert_to(gen_random_uuid()::text || clock_timestamp()::text || random()::text, 'UTF8')), 'hex'),
  ADD COLUMN "erasedAt" TIMESTAMP(3),
  ADD COLUMN "legalHold" BOOLEAN NOT NULL DEFAULT false;
UPDATE "Customer" SET "salt" = encode(sha256(convert_to(gen_random_uuid()::text || id || random()::text, 'UTF8')), 'hex') WHERE "salt" IS NULL;

-- A legal hold on one ticket suspends its erasure and its retention; erasedAt: when its personal text
-- was erased (the customer's erasure, or the retention job).
ALTER TABLE "Ticket" ADD COLUMN "legalHold" BOOLEAN NOT NULL DEFAULT false, ADD COLUMN "erasedAt" TIMESTAMP(3);

-- The retention job reads the resolved tickets not yet erased, oldest first, in batches.
CREATE INDEX "Ticket_retention_idx" ON "Ticket" ("updatedAt") WHERE "erasedAt" IS NULL AND "status" = 'resolved';

-- Retention (lib/privacy/apply-retention.ts): a routine job, as the sweeps are.
SELECT pgboss.create_queue('retention', '{"policy":"standard"}');

-- Approval decisions stay append-only, with one exception: erasure may set a decision's free text
-- (the reviewer's note, the reply before and after an edit) to NULL, and change nothing else. The
-- decision's signature covers none of these columns, so it still verifies. A DELETE, or an UPDATE
-- that changes any other column or writes new text, is refused as before.
CREATE FUNCTION countersign_decision_erasure() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE'
     AND NEW."note" IS NULL AND NEW."originalReply" IS NULL AND NEW."editedReply" IS NULL
     AND (to_jsonb(NEW) - 'note' - 'originalReply' - 'editedReply') = (to_jsonb(OLD) - 'note' - 'originalReply' - 'editedReply') THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'append_only: % on "%" is refused', TG_OP, TG_TABLE_NAME USING ERRCODE = '42501';
END
$$;
DROP TRIGGER "ApprovalDecision_append_only" ON "ApprovalDecision";
CREATE TRIGGER "ApprovalDecision_append_only" BEFORE UPDATE OR DELETE ON "ApprovalDecision"
  FOR EACH ROW EXECUTE FUNCTION countersign_decision_erasure();

-- A customer's data export (Art. 15): produced by a job, downloaded once by an admin, then emptied.
CREATE TABLE "SubjectExport" (
  "id" UUID NOT NULL DEFAULT gen_random_uuid(),
  "customerId" TEXT NOT NULL,
  "requestedById" UUID NOT NULL,
  "status" TEXT NOT NULL DEFAULT 'pending',
  "data" JSONB,
  "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "readyAt" TIMESTAMP(3),
  "downloadedAt" TIMESTAMP(3),
  "downloadedById" UUID,
  CONSTRAINT "SubjectExport_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "SubjectExport_status_check" CHECK ("status" IN ('pending', 'ready', 'downloaded', 'discarded'))
);
CREATE INDEX "SubjectExport_customerId_idx" ON "SubjectExport"("customerId");

SELECT pgboss.create_queue('subject-export', '{"policy":"standard"}');
