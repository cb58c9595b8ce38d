-- Evaluations of the agent started from the app (lib/eval/evaluation-requests.ts): one row per
-- request, graded by the evaluate-agent job in a process of its own, its receipt stored as an EvalRun.
CREATE TABLE "EvalRequest" (
    "id" UUID NOT NULL,
    "datasetPath" TEXT NOT NULL,
    "planner" TEXT NOT NULL,
    "model" TEXT,
    "trials" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "done" INTEGER NOT NULL DEFAULT 0,
    "total" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "evalRunId" UUID,
    "startedById" UUID,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "EvalRequest_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "EvalRequest_createdAt_idx" ON "EvalRequest"("createdAt" DESC);

ALTER TABLE "EvalRequest" ADD CONSTRAINT "EvalRequest_evalRunId_fkey" FOREIGN KEY ("evalRunId") REFERENCES "EvalRun"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "EvalRequest" ADD CONSTRAINT "EvalRequest_startedById_fkey" FOREIGN KEY ("startedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- What each agent run cost, in US dollars, from its tokens and the model prices configured when it
-- ended (lib/agent/run-cost.ts); an eval run's total over its graded episodes.
ALTER TABLE "AgentRun" ADD COLUMN "costUsd" DECIMAL(14,6);
ALTER TABLE "EvalRun" ADD COLUMN "costUsd" DECIMAL(14,6);

SELECT pgboss.create_queue('evaluate-agent', '{"policy":"standard"}');

-- A receipt stored through the server by `npm run eval` is known by its request body's digest: a
-- replayed request stores nothing a second time.
ALTER TABLE "EvalRun" ADD COLUMN "receiptDigest" TEXT;
CREATE UNIQUE INDEX "EvalRun_receiptDigest_key" ON "EvalRun"("receiptDigest");
