-- People's judgements of agent runs, and the episodes saved from them (lib/eval/annotate-run.ts,
-- save-episode-candidate.ts, review-episode-candidate.ts): a candidate is promoted by a lead into the
-- team dataset the evaluations started from /evals may grade.
CREATE TABLE "RunAnnotation" (
    "id" UUID NOT NULL,
    "runId" UUID NOT NULL,
    "ticketId" UUID NOT NULL,
    "assigneeId" UUID,
    "verdict" TEXT,
    "reason" TEXT,
    "correctedReply" TEXT,
    "correctedAmountCents" INTEGER,
    "annotatedById" UUID,
    "annotatedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RunAnnotation_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "EpisodeCandidate" (
    "id" UUID NOT NULL,
    "annotationId" UUID NOT NULL,
    "episodeId" TEXT NOT NULL,
    "episode" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'candidate',
    "savedById" UUID NOT NULL,
    "reviewedById" UUID,
    "reviewedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EpisodeCandidate_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "RunAnnotation_runId_key" ON "RunAnnotation"("runId");
CREATE INDEX "RunAnnotation_assigneeId_idx" ON "RunAnnotation"("assigneeId");
CREATE UNIQUE INDEX "EpisodeCandidate_annotationId_key" ON "EpisodeCandidate"("annotationId");
CREATE UNIQUE INDEX "EpisodeCandidate_episodeId_key" ON "EpisodeCandidate"("episodeId");
CREATE INDEX "EpisodeCandidate_status_reviewedAt_idx" ON "EpisodeCandidate"("status", "reviewedAt");

ALTER TABLE "RunAnnotation" ADD CONSTRAINT "RunAnnotation_runId_fkey" FOREIGN KEY ("runId") REFERENCES "AgentRun"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "RunAnnotation" ADD CONSTRAINT "RunAnnotation_assigneeId_fkey" FOREIGN KEY ("assigneeId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "RunAnnotation" ADD CONSTRAINT "RunAnnotation_annotatedById_fkey" FOREIGN KEY ("annotatedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "EpisodeCandidate" ADD CONSTRAINT "EpisodeCandidate_annotationId_fkey" FOREIGN KEY ("annotationId") REFERENCES "RunAnnotation"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
