-- What each batch item's run waited on the model's rate limit, for the batch's progress.
ALTER TABLE "AgentBatchItem" ADD COLUMN "limiterWaitMs" INTEGER NOT NULL DEFAULT 0;
