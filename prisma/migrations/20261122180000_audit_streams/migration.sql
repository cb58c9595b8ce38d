-- The audit chain becomes one chain per stream (a ticket, or the subject), so that appends of
-- independent tickets no longer queue on one lock held until COMMIT. Events written before this
-- migration keep their single chain as the legacy stream "" (version 1), verified as before.

ALTER TABLE "AuditEvent"
  ADD COLUMN "stream" TEXT,
  ADD COLUMN "streamSeq" BIGINT,
  ADD COLUMN "txid" BIGINT,
  ADD COLUMN "version" INTEGER NOT NULL DEFAULT 1;

-- The one rewrite of history this table ever sees, by the owner, in the migration's transaction:
-- existing events are labelled as the legacy stream; their hashes and links are untouched.
ALTER TABLE "AuditEvent" DISABLE TRIGGER "AuditEvent_append_only";
UPDATE "AuditEvent" SET "stream" = '', "streamSeq" = "seq", "txid" = 0;
ALTER TABLE "AuditEvent" ENABLE TRIGGER "AuditEvent_append_only";

ALTER TABLE "AuditEvent"
  ALTER COLUMN "stream" SET NOT NULL,
  ALTER COLUMN "streamSeq" SET NOT NULL,
  ALTER COLUMN "txid" SET NOT NULL,
  ALTER COLUMN "txid" SET DEFAULT (pg_current_xact_id())::text::bigint,
  ALTER COLUMN "version" SET DEFAULT 2;

CREATE UNIQUE INDEX "AuditEvent_stream_streamSeq_key" ON "AuditEvent"("stream", "streamSeq");
CREATE INDEX "AuditEvent_txid_seq_idx" ON "AuditEvent"("txid", "seq");

CREATE TABLE "AuditStream" (
    "stream" TEXT NOT NULL,
    "events" BIGINT NOT NULL,
    "prevHash" TEXT NOT NULL,
    "headHash" TEXT NOT NULL,

    CONSTRAINT "AuditStream_pkey" PRIMARY KEY ("stream")
);

CREATE TABLE "AuditCheckpoint" (
    "position" INTEGER NOT NULL,
    "signedAt" TIMESTAMP(3) NOT NULL,
    "horizon" BIGINT NOT NULL,
    "events" BIGINT NOT NULL,
    "windowEvents" INTEGER NOT NULL,
    "windowDigest" TEXT NOT NULL,
    "ledgerRows" INTEGER NOT NULL,
    "ledgerCents" BIGINT NOT NULL,
    "prevHash" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "signature" TEXT NOT NULL,
    "keyId" TEXT NOT NULL,

    CONSTRAINT "AuditCheckpoint_pkey" PRIMARY KEY ("position")
);
CREATE UNIQUE INDEX "AuditCheckpoint_hash_key" ON "AuditCheckpoint"("hash");
CREATE TRIGGER "AuditCheckpoint_append_only" BEFORE UPDATE OR DELETE ON "AuditCheckpoint"
  FOR EACH ROW EXECUTE FUNCTION countersign_refuse_change();
CREATE TRIGGER "AuditCheckpoint_no_truncate" BEFORE TRUNCATE ON "AuditCheckpoint"
  FOR EACH STATEMENT EXECUTE FUNCTION countersign_refuse_change();

CREATE TABLE "AuditVerification" (
    "id" SERIAL NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "full" BOOLEAN NOT NULL,
    "ok" BOOLEAN NOT NULL,
    "position" INTEGER NOT NULL,
    "events" BIGINT NOT NULL,

    CONSTRAINT "AuditVerification_pkey" PRIMARY KEY ("id")
);

ALTER TABLE "LedgerEntry" ADD COLUMN "txid" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "LedgerEntry" ALTER COLUMN "txid" SET DEFAULT (pg_current_xact_id())::text::bigint;
CREATE INDEX "LedgerEntry_txid_idx" ON "LedgerEntry"("txid");

-- Appends a batch of events in one round trip. Each event arrives with its content hash (computed
-- by the application over the canonical event, see lib/audit/record-audit-event.ts); here it is
-- chained onto its stream's head, whose row lock orders the appends of one stream and nothing else.
-- hash = sha256(prevHash ‖ contentHash), hex.
CREATE FUNCTION countersign_append_audit(events jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  e jsonb;
  head "AuditStream"%ROWTYPE;
BEGIN
  FOR e IN SELECT value FROM jsonb_array_elements(events) LOOP
    INSERT INTO "AuditStream" AS s ("stream", "events", "prevHash", "headHash")
      VALUES (e->>'stream', 1, repeat('0', 64), encode(sha256(convert_to(repeat('0', 64) || (e->>'contentHash'), 'UTF8')), 'hex'))
      ON CONFLICT ("stream") DO UPDATE SET
        "events" = s."events" + 1,
        "prevHash" = s."headHash",
        "headHash" = encode(sha256(convert_to(s."headHash" || (e->>'contentHash'), 'UTF8')), 'hex')
      RETURNING * INTO head;
    INSERT INTO "AuditEvent" ("at", "actorType", "actorId", "action", "subjectType", "subjectId", "ticketId", "inputs", "policyDecision", "idempotencyKey", "stream", "streamSeq", "prevHash", "hash")
      VALUES ((e->>'at')::timestamp(3), e->>'actorType', e->>'actorId', e->>'action', e->>'subjectType', e->>'subjectId', (e->>'ticketId')::uuid,
              NULLIF(e->'inputs', 'null'), NULLIF(e->'policyDecision', 'null'), e->>'idempotencyKey', head."stream", head."events", head."prevHash", head."headHash");
  END LOOP;
END $$;

-- The job that signs a checkpoint every minute.
SELECT pgboss.create_queue('audit-checkpoint', '{"policy":"standard"}');

-- The evals page reads the latest finished runs and the live hand-offs per day: indexes, not scans.
CREATE INDEX "AgentRun_startedAt_id_idx" ON "AgentRun"("startedAt" DESC, "id" DESC);
CREATE INDEX "AgentRun_status_mode_startedAt_idx" ON "AgentRun"("status", "mode", "startedAt");
