-- Durable effects: the job queue (pg-boss 10, schema version 24), one ticket lifecycle, run leases,
-- recorded execution outcomes, and the database's share of "at most one" rules.

-- ─── the job queue's own tables: pg-boss's construction plan, created here rather than at run time

    
    CREATE SCHEMA IF NOT EXISTS pgboss
  ;

    CREATE TYPE pgboss.job_state AS ENUM (
      'created',
      'retry',
      'active',
      'completed',
      'cancelled',
      'failed'
    )
  ;

    CREATE TABLE pgboss.version (
      version int primary key,
      maintained_on timestamp with time zone,
      cron_on timestamp with time zone,
      monitored_on timestamp with time zone
    )
  ;

    CREATE TABLE pgboss.queue (
      name text,
      policy text,
      retry_limit int,
      retry_delay int,
      retry_backoff bool,
      expire_seconds int,
      retention_minutes int,
      dead_letter text REFERENCES pgboss.queue (name),
      partition_name text,
      created_on timestamp with time zone not null default now(),
      updated_on timestamp with time zone not null default now(),
      PRIMARY KEY (name)
    )
  ;

    CREATE TABLE pgboss.schedule (
      name text REFERENCES pgboss.queue ON DELETE CASCADE,
      cron text not null,
      timezone text,
      data jsonb,
      options jsonb,
      created_on timestamp with time zone not null default now(),
      updated_on timestamp with time zone not null default now(),
      PRIMARY KEY (name)
    )
  ;

    CREATE TABLE pgboss.subscription (
      event text not null,
      name text not null REFERENCES pgboss.queue ON DELETE CASCADE,
      created_on timestamp with time zone not null default now(),
      updated_on timestamp with time zone not null default now(),
      PRIMARY KEY(event, name)
    )
  ;

    CREATE TABLE pgboss.job (
      id uuid not null default gen_random_uuid(),
      name text not null,
      priority integer not null default(0),
      data jsonb,
      state pgboss.job_state not null default('created'),
      retry_limit integer not null default(2),
      retry_count integer not null default(0),
      retry_delay integer not null default(0),
      retry_backoff boolean not null default false,
      start_after timestamp with time zone not null default now(),
      started_on timestamp with time zone,
      singleton_key text,
      singleton_on timestamp without time zone,
      expire_in interval not null default interval '15 minutes',
      created_on timestamp with time zone not null default now(),
      completed_on timestamp with time zone,
      keep_until timestamp with time zone NOT NULL default now() + interval '14 days',
      output jsonb,
      dead_letter text,
      policy text
    ) PARTITION BY LIST (name)
  ;
ALTER TABLE pgboss.job ADD PRIMARY KEY (name, id);
CREATE TABLE pgboss.archive (LIKE pgboss.job);
ALTER TABLE pgboss.archive ADD PRIMARY KEY (name, id);
ALTER TABLE pgboss.archive ADD archived_on timestamptz NOT NULL DEFAULT now();
CREATE INDEX archive_i1 ON pgboss.archive(archived_on);

    CREATE FUNCTION pgboss.create_queue(queue_name text, options json)
    RETURNS VOID AS
    $$
    DECLARE
      table_name varchar := 'j' || encode(sha224(queue_name::bytea), 'hex');
      queue_created_on timestamptz;
    BEGIN

      WITH q as (
      INSERT INTO pgboss.queue (
        name,
        policy,
        retry_limit,
        retry_delay,
        retry_backoff,
        expire_seconds,
        retention_minutes,
        dead_letter,
        partition_name
      )
      VALUES (
        queue_name,
        options->>'policy',
        (options->>'retryLimit')::int,
        (options->>'retryDelay')::int,
        (options->>'retryBackoff')::bool,
        (options->>'expireInSeconds')::int,
        (options->>'retentionMinutes')::int,
        options->>'deadLetter',
        table_name
      )
      ON CONFLICT DO NOTHING
      RETURNING created_on
      )
      SELECT created_on into queue_created_on from q;

      IF queue_created_on IS NULL THEN
        RETURN;
      END IF;

      EXECUTE format('CREATE TABLE pgboss.%I (LIKE pgboss.job INCLUDING DEFAULTS)', table_name);

      EXECUTE format('ALTER TABLE pgboss.%1$I ADD PRIMARY KEY (name, id)', table_name);
      EXECUTE format('ALTER TABLE pgboss.%1$I ADD CONSTRAINT q_fkey FOREIGN KEY (name) REFERENCES pgboss.queue (name) ON DELETE RESTRICT DEFERRABLE INITIALLY DEFERRED', table_name);
      EXECUTE format('ALTER TABLE pgboss.%1$I ADD CONSTRAINT dlq_fkey FOREIGN KEY (dead_letter) REFERENCES pgboss.queue (name) ON DELETE RESTRICT DEFERRABLE INITIALLY DEFERRED', table_name);
      EXECUTE format('CREATE UNIQUE INDEX %1$s_i1 ON pgboss.%1$I (name, COALESCE(singleton_key, '''')) WHERE state = ''created'' AND policy = ''short''', table_name);
      EXECUTE format('CREATE UNIQUE INDEX %1$s_i2 ON pgboss.%1$I (name, COALESCE(singleton_key, '''')) WHERE state = ''active'' AND policy = ''singleton''', table_name);
      EXECUTE format('CREATE UNIQUE INDEX %1$s_i3 ON pgboss.%1$I (name, state, COALESCE(singleton_key, '''')) WHERE state <= ''active'' AND policy = ''stately''', table_name);
      EXECUTE format('CREATE UNIQUE INDEX %1$s_i4 ON pgboss.%1$I (name, singleton_on, COALESCE(singleton_key, '''')) WHERE state <> ''cancelled'' AND singleton_on IS NOT NULL', table_name);
      EXECUTE format('CREATE INDEX %1$s_i5 ON pgboss.%1$I (name, start_after) INCLUDE (priority, created_on, id) WHERE state < ''active''', table_name);

      EXECUTE format('ALTER TABLE pgboss.%I ADD CONSTRAINT cjc CHECK (name=%L)', table_name, queue_name);
      EXECUTE format('ALTER TABLE pgboss.job ATTACH PARTITION pgboss.%I FOR VALUES IN (%L)', table_name, queue_name);
    END;
    $$
    LANGUAGE plpgsql;
  ;

    CREATE FUNCTION pgboss.delete_queue(queue_name text)
    RETURNS VOID AS
    $$
    DECLARE
      table_name varchar;
    BEGIN
      WITH deleted as (
        DELETE FROM pgboss.queue
        WHERE name = queue_name
        RETURNING partition_name
      )
      SELECT partition_name from deleted INTO table_name;

      EXECUTE format('DROP TABLE IF EXISTS pgboss.%I', table_name);
    END;
    $$
    LANGUAGE plpgsql;
  ;
INSERT INTO pgboss.version(version) VALUES ('24');
  

-- The queues this app uses (retry, backoff and lock timeout are set per job when it is sent).
SELECT pgboss.create_queue('__pgboss__send-it', '{"policy":"standard"}');
SELECT pgboss.create_queue('refund-execute', '{"policy":"standard"}');
SELECT pgboss.create_queue('agent-run', '{"policy":"standard"}');
SELECT pgboss.create_queue('sweep-runs', '{"policy":"standard"}');
SELECT pgboss.create_queue('sweep-approvals', '{"policy":"standard"}');
SELECT pgboss.create_queue('reconcile-refunds', '{"policy":"standard"}');

-- The home-made queue table it replaces was never used.
DROP TABLE "Job";
DROP TYPE "JobStatus";


-- ─── runs: a lease the running process renews; a batch the run belongs to
ALTER TABLE "AgentRun" ADD COLUMN "leaseOwner" TEXT,
  ADD COLUMN "leaseExpiresAt" TIMESTAMP(3),
  ADD COLUMN "batchId" UUID;
CREATE INDEX "AgentRun_batchId_idx" ON "AgentRun"("batchId");
CREATE INDEX "AgentRun_running_lease_idx" ON "AgentRun"("leaseExpiresAt") WHERE "status" = 'running';

-- Runs left `running` by a process that no longer exists: they had no lease, so they are interrupted now.
UPDATE "AgentRun" SET "status" = 'interrupted', "reason" = 'run_interrupted', "finishedAt" = CURRENT_TIMESTAMP WHERE "status" = 'running';

-- At most one live run at work on a ticket (simulate and shadow runs do not count).
CREATE UNIQUE INDEX "AgentRun_one_active_live_run" ON "AgentRun"("ticketId") WHERE "status" = 'running' AND "mode" = 'live';

-- Batches of agent runs (bulk runs, shadow passes) with progress a page can read.
CREATE TABLE "AgentBatch" (
  "id" UUID NOT NULL,
  "kind" TEXT NOT NULL,
  "mode" "RunMode" NOT NULL,
  "total" INTEGER NOT NULL,
  "createdById" UUID,
  "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "AgentBatch_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "AgentBatch_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE
);
-- One row per ticket of a batch: queued until its job has run it (done) or could not (refused, failed).
CREATE TABLE "AgentBatchItem" (
  "batchId" UUID NOT NULL,
  "ticketId" UUID NOT NULL,
  "status" TEXT NOT NULL DEFAULT 'queued',
  "runId" UUID,
  "detail" TEXT,
  "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "AgentBatchItem_pkey" PRIMARY KEY ("batchId", "ticketId"),
  CONSTRAINT "AgentBatchItem_batchId_fkey" FOREIGN KEY ("batchId") REFERENCES "AgentBatch"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "AgentBatchItem_ticketId_fkey" FOREIGN KEY ("ticketId") REFERENCES "Ticket"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
ALTER TABLE "AgentRun" ADD CONSTRAINT "AgentRun_batchId_fkey" FOREIGN KEY ("batchId") REFERENCES "AgentBatch"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- ─── approvals: the executor's final outcome, recorded with the ledger row in one transaction
ALTER TABLE "ApprovalRequest" ADD COLUMN "executionOutcome" TEXT,
  ADD COLUMN "executedAt" TIMESTAMP(3);
CREATE INDEX "ApprovalRequest_unexecuted_idx" ON "ApprovalRequest"("createdAt") WHERE "kind" = 'refund' AND "status" = 'approved' AND "executionOutcome" IS NULL;

-- Two pending approvals on one ticket were possible; keep the newest, supersede the others.
UPDATE "ApprovalRequest" a SET "status" = 'superseded'
WHERE a."status" = 'pending' AND EXISTS (
  SELECT 1 FROM "ApprovalRequest" b WHERE b."ticketId" = a."ticketId" AND b."status" = 'pending' AND (b."createdAt", b."id") > (a."createdAt", a."id"));
-- At most one pending approval per ticket.
CREATE UNIQUE INDEX "ApprovalRequest_one_pending_per_ticket" ON "ApprovalRequest"("ticketId") WHERE "status" = 'pending';

-- A system approval (a refund auto-approved within the autonomy dial) has no person behind it.
ALTER TABLE "ApprovalDecision" ALTER COLUMN "deciderId" DROP NOT NULL;
ALTER TABLE "ApprovalDecision" ADD COLUMN "automatic" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "ApprovalDecision" ADD CONSTRAINT "ApprovalDecision_decider_present" CHECK ("automatic" OR "deciderId" IS NOT NULL);

-- ─── the outbox: at most one reply per approval
CREATE UNIQUE INDEX "OutboxMessage_approvalRequestId_key" ON "OutboxMessage"("approvalRequestId");
