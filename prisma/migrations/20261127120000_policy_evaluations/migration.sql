-- The corpus an answer was drawn from, named wherever a decision is recorded: on every agent run, in
-- every approval's digest (a publish makes waiting approvals stale, as a policy setting does) and in
-- eval receipts. And a draft's evaluation before it is published, as a job.

-- The corpus hash: sha256 over the versions in effect (countersign_policy_in_effect, the one rule of
-- what is evidence), one line "docKey@version contentHash" each, in byte order of their keys (COLLATE
-- "C": the same order on every database, whatever its default collation). `candidate` as there: the
-- corpus as it would be once that version is published. Every reader asks this function – in a
-- statement of its own or inside one that needs it (lib/policy/corpus-hash.ts).
CREATE FUNCTION countersign_corpus_hash(at_time TIMESTAMP(3) DEFAULT (now() AT TIME ZONE 'UTC'), candidate UUID DEFAULT NULL)
RETURNS TEXT LANGUAGE sql STABLE AS $$
  SELECT encode(sha256(convert_to(coalesce(
           string_agg(d."docKey" || '@' || d."version" || ' ' || d."contentHash", E'\n' ORDER BY d."docKey" COLLATE "C"), ''), 'UTF8')), 'hex')
  FROM countersign_policy_in_effect(at_time, candidate) e
  JOIN "PolicyDocument" d ON d."id" = e."id"
$$;

-- A run records the corpus it started on (null: a run from before it was recorded).
ALTER TABLE "AgentRun" ADD COLUMN "corpusHash" TEXT;

-- A request is made under a corpus as under a policy version. Requests from before it was recorded
-- carry '' and are stale: their digest never covered a corpus, so none is current.
ALTER TABLE "ApprovalRequest" ADD COLUMN "corpusHash" TEXT NOT NULL DEFAULT '';
ALTER TABLE "ApprovalRequest" ALTER COLUMN "corpusHash" DROP DEFAULT;

CREATE TYPE "EvaluationStatus" AS ENUM ('queued', 'running', 'done', 'failed');

-- One evaluation of one version's content: the labelled questions and the episodes graded on the
-- corpus in effect and on the corpus with this version published, and what changed between them.
CREATE TABLE "PolicyEvaluation" (
    "id" UUID NOT NULL,
    "documentId" UUID NOT NULL,
    "contentHash" TEXT NOT NULL,
    "status" "EvaluationStatus" NOT NULL DEFAULT 'queued',
    "startedById" UUID NOT NULL,
    "corpusHashBefore" TEXT,
    "corpusHashAfter" TEXT,
    "progress" JSONB,
    "results" JSONB,
    "regressions" INTEGER,
    "error" TEXT,
    "acknowledgedById" UUID,
    "acknowledgedAt" TIMESTAMP(3),
    "acknowledgementNote" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "runningAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "PolicyEvaluation_pkey" PRIMARY KEY ("id"),
    -- What the gate reads must hold together: a finished evaluation has its results and its count,
    -- and only a finished one with regressions is acknowledged, by someone, at a time.
    CONSTRAINT "PolicyEvaluation_done_has_results" CHECK ("status" <> 'done' OR ("results" IS NOT NULL AND "regressions" IS NOT NULL)),
    CONSTRAINT "PolicyEvaluation_acknowledged" CHECK (
      ("acknowledgedById" IS NULL AND "acknowledgedAt" IS NULL AND "acknowledgementNote" IS NULL)
      OR ("acknowledgedById" IS NOT NULL AND "acknowledgedAt" IS NOT NULL AND "status" = 'done' AND "regressions" > 0))
);

-- An evaluation goes with its version: a draft deleted takes its evaluations (their events stay in the audit trail).
ALTER TABLE "PolicyEvaluation" ADD CONSTRAINT "PolicyEvaluation_documentId_fkey" FOREIGN KEY ("documentId") REFERENCES "PolicyDocument"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "PolicyEvaluation" ADD CONSTRAINT "PolicyEvaluation_startedById_fkey" FOREIGN KEY ("startedById") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "PolicyEvaluation" ADD CONSTRAINT "PolicyEvaluation_acknowledgedById_fkey" FOREIGN KEY ("acknowledgedById") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

CREATE INDEX "PolicyEvaluation_documentId_contentHash_createdAt_idx" ON "PolicyEvaluation"("documentId", "contentHash", "createdAt" DESC);

-- One evaluation of a content waiting or running at a time: a second click, or two people at once,
-- get the one already under way.
CREATE UNIQUE INDEX "PolicyEvaluation_one_open_per_content" ON "PolicyEvaluation"("documentId", "contentHash") WHERE "status" IN ('queued', 'running');

SELECT pgboss.create_queue('evaluate-document', '{"policy":"standard"}');
