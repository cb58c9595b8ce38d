-- Bulk work from the queue: a batch either runs the agent (a mode, no assignee) or assigns its tickets
-- to one person (an assignee, no mode). The database holds the pairing, whoever writes the row.
ALTER TABLE "AgentBatch" ALTER COLUMN "mode" DROP NOT NULL;
ALTER TABLE "AgentBatch" ADD COLUMN "assigneeId" UUID;
ALTER TABLE "AgentBatch" ADD CONSTRAINT "AgentBatch_work_check" CHECK (
  CASE WHEN "kind" = 'assign' THEN "mode" IS NULL AND "assigneeId" IS NOT NULL
       ELSE "mode" IS NOT NULL AND "assigneeId" IS NULL END
);

-- One assignment of a bulk batch per job.
SELECT pgboss.create_queue('bulk-assign', '{"policy":"standard"}');
