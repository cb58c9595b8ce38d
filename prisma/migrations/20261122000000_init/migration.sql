-- CreateEnum
CREATE TYPE "Role" AS ENUM ('REVIEWER', 'SPECIALIST', 'LEAD', 'ADMIN');

-- CreateEnum
CREATE TYPE "TicketRoute" AS ENUM ('guarded_agent', 'human_review_now');

-- CreateEnum
CREATE TYPE "Admission" AS ENUM ('admitted', 'bypassed');

-- CreateEnum
CREATE TYPE "TicketSource" AS ENUM ('api', 'form', 'seed');

-- CreateEnum
CREATE TYPE "TicketStatus" AS ENUM ('open', 'bypassed', 'blocked', 'needs_human', 'auto_approved', 'completed', 'resolved');

-- CreateEnum
CREATE TYPE "DocumentStatus" AS ENUM ('approved', 'draft', 'retired');

-- CreateEnum
CREATE TYPE "RunMode" AS ENUM ('live', 'simulate');

-- CreateEnum
CREATE TYPE "RunStatus" AS ENUM ('running', 'bypassed', 'blocked', 'needs_human', 'auto_approved', 'completed');

-- CreateEnum
CREATE TYPE "ProposalDecision" AS ENUM ('auto_approved', 'needs_human', 'denied');

-- CreateEnum
CREATE TYPE "ApprovalKind" AS ENUM ('refund', 'reply');

-- CreateEnum
CREATE TYPE "ApprovalStatus" AS ENUM ('pending', 'approved', 'rejected');

-- CreateEnum
CREATE TYPE "DecisionKind" AS ENUM ('approve', 'reject');

-- CreateEnum
CREATE TYPE "ReleaseOutcome" AS ENUM ('eligible_for_shadow', 'hold');

-- CreateEnum
CREATE TYPE "JobStatus" AS ENUM ('queued', 'running', 'done', 'failed');

-- CreateTable
CREATE TABLE "User" (
    "id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "role" "Role" NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "sessionVersion" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SignInThrottle" (
    "key" TEXT NOT NULL,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "windowStart" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lockedUntil" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SignInThrottle_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "Customer" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "flagged" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Customer_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Order" (
    "id" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "item" TEXT NOT NULL,
    "amountCents" INTEGER NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'USD',
    "region" TEXT NOT NULL DEFAULT 'US',
    "category" TEXT NOT NULL,
    "placedAt" TIMESTAMP(3) NOT NULL,
    "deliveredAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Order_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Ticket" (
    "id" UUID NOT NULL,
    "number" SERIAL NOT NULL,
    "externalId" TEXT,
    "payloadHash" TEXT,
    "source" "TicketSource" NOT NULL,
    "subject" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "customerEmail" TEXT NOT NULL,
    "orderRef" TEXT,
    "route" "TicketRoute" NOT NULL,
    "bundleVersion" TEXT NOT NULL,
    "routeSignature" TEXT,
    "admission" "Admission" NOT NULL,
    "admissionReason" TEXT,
    "status" "TicketStatus" NOT NULL DEFAULT 'open',
    "reason" TEXT,
    "assigneeId" UUID,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Ticket_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PolicyDocument" (
    "id" UUID NOT NULL,
    "docKey" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "section" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "status" "DocumentStatus" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PolicyDocument_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PolicyChunk" (
    "id" UUID NOT NULL,
    "documentId" UUID NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "heading" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "search" tsvector,

    CONSTRAINT "PolicyChunk_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AgentRun" (
    "id" UUID NOT NULL,
    "ticketId" UUID NOT NULL,
    "mode" "RunMode" NOT NULL,
    "planner" TEXT NOT NULL,
    "status" "RunStatus" NOT NULL DEFAULT 'running',
    "reason" TEXT,
    "agentVersion" TEXT NOT NULL,
    "bundleVersion" TEXT NOT NULL,
    "policyVersion" TEXT NOT NULL,
    "manifest" JSONB NOT NULL,
    "budgets" JSONB NOT NULL,
    "stepsUsed" INTEGER NOT NULL DEFAULT 0,
    "tokensUsed" INTEGER NOT NULL DEFAULT 0,
    "elapsedMs" INTEGER NOT NULL DEFAULT 0,
    "evidence" JSONB,
    "citations" TEXT[],
    "draft" TEXT,
    "startedById" UUID,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "AgentRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TraceEvent" (
    "id" BIGSERIAL NOT NULL,
    "runId" UUID NOT NULL,
    "step" INTEGER NOT NULL,
    "action" TEXT NOT NULL,
    "args" JSONB NOT NULL,
    "outcome" TEXT NOT NULL,
    "reason" TEXT,
    "result" JSONB,
    "policyDecision" JSONB,
    "promptTokens" INTEGER NOT NULL DEFAULT 0,
    "completionTokens" INTEGER NOT NULL DEFAULT 0,
    "latencyMs" INTEGER NOT NULL DEFAULT 0,
    "model" TEXT,
    "promptVersion" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TraceEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RefundProposal" (
    "id" UUID NOT NULL,
    "runId" UUID NOT NULL,
    "ticketId" UUID NOT NULL,
    "orderId" TEXT NOT NULL,
    "amountCents" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "decision" "ProposalDecision" NOT NULL,
    "decisionReasons" TEXT[],
    "policyVersion" TEXT NOT NULL,
    "requiredRole" "Role",
    "simulated" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RefundProposal_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Setting" (
    "key" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "updatedById" UUID,

    CONSTRAINT "Setting_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "ApprovalRequest" (
    "id" UUID NOT NULL,
    "ticketId" UUID NOT NULL,
    "runId" UUID,
    "proposalId" UUID,
    "kind" "ApprovalKind" NOT NULL,
    "digest" TEXT NOT NULL,
    "operation" JSONB NOT NULL,
    "draft" TEXT,
    "policyVersion" TEXT NOT NULL,
    "bundleVersion" TEXT NOT NULL,
    "agentVersion" TEXT NOT NULL,
    "requiredRole" "Role" NOT NULL,
    "status" "ApprovalStatus" NOT NULL DEFAULT 'pending',
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ApprovalRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApprovalDecision" (
    "id" UUID NOT NULL,
    "approvalRequestId" UUID NOT NULL,
    "decision" "DecisionKind" NOT NULL,
    "note" TEXT,
    "originalReply" TEXT,
    "editedReply" TEXT,
    "deciderId" UUID NOT NULL,
    "deciderRole" "Role" NOT NULL,
    "digest" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ApprovalDecision_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OutboxMessage" (
    "id" UUID NOT NULL,
    "ticketId" UUID NOT NULL,
    "approvalRequestId" UUID,
    "body" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deliveredAt" TIMESTAMP(3),

    CONSTRAINT "OutboxMessage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LedgerEntry" (
    "id" UUID NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "approvalRequestId" UUID,
    "amountCents" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'refund',
    "actorType" TEXT NOT NULL,
    "actorId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LedgerEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuditEvent" (
    "seq" BIGSERIAL NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actorType" TEXT NOT NULL,
    "actorId" TEXT,
    "action" TEXT NOT NULL,
    "subjectType" TEXT NOT NULL,
    "subjectId" TEXT,
    "ticketId" UUID,
    "inputs" JSONB,
    "policyDecision" JSONB,
    "idempotencyKey" TEXT,
    "prevHash" TEXT NOT NULL,
    "hash" TEXT NOT NULL,

    CONSTRAINT "AuditEvent_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "EvalRun" (
    "id" UUID NOT NULL,
    "datasetVersion" TEXT NOT NULL,
    "datasetHash" TEXT NOT NULL,
    "graderVersion" TEXT NOT NULL,
    "agentVersion" TEXT NOT NULL,
    "modelId" TEXT NOT NULL,
    "commit" TEXT NOT NULL,
    "trials" INTEGER NOT NULL DEFAULT 1,
    "receipt" JSONB NOT NULL,
    "passed" INTEGER NOT NULL,
    "failed" INTEGER NOT NULL,
    "createdById" UUID,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EvalRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EpisodeResult" (
    "id" UUID NOT NULL,
    "evalRunId" UUID NOT NULL,
    "episodeId" TEXT NOT NULL,
    "trial" INTEGER NOT NULL DEFAULT 1,
    "passed" BOOLEAN NOT NULL,
    "expected" JSONB NOT NULL,
    "actual" JSONB NOT NULL,
    "explanation" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EpisodeResult_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReleaseDecision" (
    "id" UUID NOT NULL,
    "evalRunId" UUID NOT NULL,
    "outcome" "ReleaseOutcome" NOT NULL,
    "reason" TEXT,
    "decidedById" UUID,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ReleaseDecision_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ShadowDecision" (
    "id" UUID NOT NULL,
    "ticketId" UUID NOT NULL,
    "runId" UUID NOT NULL,
    "amountCents" INTEGER NOT NULL,
    "limitCents" INTEGER NOT NULL,
    "wouldAutoApprove" BOOLEAN NOT NULL,
    "humanDecision" "DecisionKind",
    "agreed" BOOLEAN,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ShadowDecision_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Job" (
    "id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" "JobStatus" NOT NULL DEFAULT 'queued',
    "runAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lockedAt" TIMESTAMP(3),
    "lockedBy" TEXT,
    "lastError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Job_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE UNIQUE INDEX "Customer_email_key" ON "Customer"("email");

-- CreateIndex
CREATE INDEX "Order_customerId_idx" ON "Order"("customerId");

-- CreateIndex
CREATE UNIQUE INDEX "Ticket_number_key" ON "Ticket"("number");

-- CreateIndex
CREATE UNIQUE INDEX "Ticket_externalId_key" ON "Ticket"("externalId");

-- CreateIndex
CREATE INDEX "Ticket_status_createdAt_idx" ON "Ticket"("status", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "Ticket_reason_createdAt_idx" ON "Ticket"("reason", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "Ticket_createdAt_idx" ON "Ticket"("createdAt" DESC);

-- CreateIndex
CREATE INDEX "PolicyDocument_status_idx" ON "PolicyDocument"("status");

-- CreateIndex
CREATE UNIQUE INDEX "PolicyDocument_docKey_version_key" ON "PolicyDocument"("docKey", "version");

-- CreateIndex
CREATE INDEX "PolicyChunk_search_idx" ON "PolicyChunk" USING GIN ("search");

-- CreateIndex
CREATE UNIQUE INDEX "PolicyChunk_documentId_ordinal_key" ON "PolicyChunk"("documentId", "ordinal");

-- CreateIndex
CREATE INDEX "AgentRun_ticketId_startedAt_idx" ON "AgentRun"("ticketId", "startedAt" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "TraceEvent_runId_step_key" ON "TraceEvent"("runId", "step");

-- CreateIndex
CREATE INDEX "RefundProposal_orderId_idx" ON "RefundProposal"("orderId");

-- CreateIndex
CREATE INDEX "RefundProposal_ticketId_idx" ON "RefundProposal"("ticketId");

-- CreateIndex
CREATE INDEX "ApprovalRequest_ticketId_idx" ON "ApprovalRequest"("ticketId");

-- CreateIndex
CREATE INDEX "ApprovalRequest_status_createdAt_idx" ON "ApprovalRequest"("status", "createdAt" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "ApprovalDecision_approvalRequestId_key" ON "ApprovalDecision"("approvalRequestId");

-- CreateIndex
CREATE INDEX "OutboxMessage_deliveredAt_createdAt_idx" ON "OutboxMessage"("deliveredAt", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "LedgerEntry_idempotencyKey_key" ON "LedgerEntry"("idempotencyKey");

-- CreateIndex
CREATE INDEX "LedgerEntry_orderId_idx" ON "LedgerEntry"("orderId");

-- CreateIndex
CREATE INDEX "LedgerEntry_createdAt_idx" ON "LedgerEntry"("createdAt" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "AuditEvent_hash_key" ON "AuditEvent"("hash");

-- CreateIndex
CREATE INDEX "AuditEvent_ticketId_seq_idx" ON "AuditEvent"("ticketId", "seq");

-- CreateIndex
CREATE INDEX "AuditEvent_actorId_seq_idx" ON "AuditEvent"("actorId", "seq");

-- CreateIndex
CREATE INDEX "AuditEvent_action_seq_idx" ON "AuditEvent"("action", "seq");

-- CreateIndex
CREATE INDEX "AuditEvent_at_idx" ON "AuditEvent"("at");

-- CreateIndex
CREATE UNIQUE INDEX "EpisodeResult_evalRunId_episodeId_trial_key" ON "EpisodeResult"("evalRunId", "episodeId", "trial");

-- CreateIndex
CREATE INDEX "ShadowDecision_limitCents_agreed_idx" ON "ShadowDecision"("limitCents", "agreed");

-- CreateIndex
CREATE INDEX "Job_status_runAt_idx" ON "Job"("status", "runAt");

-- AddForeignKey
ALTER TABLE "Order" ADD CONSTRAINT "Order_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Ticket" ADD CONSTRAINT "Ticket_assigneeId_fkey" FOREIGN KEY ("assigneeId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PolicyChunk" ADD CONSTRAINT "PolicyChunk_documentId_fkey" FOREIGN KEY ("documentId") REFERENCES "PolicyDocument"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AgentRun" ADD CONSTRAINT "AgentRun_ticketId_fkey" FOREIGN KEY ("ticketId") REFERENCES "Ticket"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AgentRun" ADD CONSTRAINT "AgentRun_startedById_fkey" FOREIGN KEY ("startedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TraceEvent" ADD CONSTRAINT "TraceEvent_runId_fkey" FOREIGN KEY ("runId") REFERENCES "AgentRun"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RefundProposal" ADD CONSTRAINT "RefundProposal_runId_fkey" FOREIGN KEY ("runId") REFERENCES "AgentRun"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RefundProposal" ADD CONSTRAINT "RefundProposal_ticketId_fkey" FOREIGN KEY ("ticketId") REFERENCES "Ticket"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RefundProposal" ADD CONSTRAINT "RefundProposal_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Setting" ADD CONSTRAINT "Setting_updatedById_fkey" FOREIGN KEY ("updatedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApprovalRequest" ADD CONSTRAINT "ApprovalRequest_ticketId_fkey" FOREIGN KEY ("ticketId") REFERENCES "Ticket"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApprovalRequest" ADD CONSTRAINT "ApprovalRequest_runId_fkey" FOREIGN KEY ("runId") REFERENCES "AgentRun"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApprovalRequest" ADD CONSTRAINT "ApprovalRequest_proposalId_fkey" FOREIGN KEY ("proposalId") REFERENCES "RefundProposal"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApprovalDecision" ADD CONSTRAINT "ApprovalDecision_approvalRequestId_fkey" FOREIGN KEY ("approvalRequestId") REFERENCES "ApprovalRequest"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApprovalDecision" ADD CONSTRAINT "ApprovalDecision_deciderId_fkey" FOREIGN KEY ("deciderId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OutboxMessage" ADD CONSTRAINT "OutboxMessage_ticketId_fkey" FOREIGN KEY ("ticketId") REFERENCES "Ticket"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OutboxMessage" ADD CONSTRAINT "OutboxMessage_approvalRequestId_fkey" FOREIGN KEY ("approvalRequestId") REFERENCES "ApprovalRequest"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LedgerEntry" ADD CONSTRAINT "LedgerEntry_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LedgerEntry" ADD CONSTRAINT "LedgerEntry_approvalRequestId_fkey" FOREIGN KEY ("approvalRequestId") REFERENCES "ApprovalRequest"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EvalRun" ADD CONSTRAINT "EvalRun_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EpisodeResult" ADD CONSTRAINT "EpisodeResult_evalRunId_fkey" FOREIGN KEY ("evalRunId") REFERENCES "EvalRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReleaseDecision" ADD CONSTRAINT "ReleaseDecision_evalRunId_fkey" FOREIGN KEY ("evalRunId") REFERENCES "EvalRun"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReleaseDecision" ADD CONSTRAINT "ReleaseDecision_decidedById_fkey" FOREIGN KEY ("decidedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShadowDecision" ADD CONSTRAINT "ShadowDecision_ticketId_fkey" FOREIGN KEY ("ticketId") REFERENCES "Ticket"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ShadowDecision" ADD CONSTRAINT "ShadowDecision_runId_fkey" FOREIGN KEY ("runId") REFERENCES "AgentRun"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- ───────────── Guarantees kept by the database itself (not diffed by Prisma) ─────────────

-- History is append-only: audit events, ledger entries and approval decisions are never changed or
-- removed, whatever code runs against the database.
CREATE FUNCTION countersign_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'append_only: % on "%" is refused', TG_OP, TG_TABLE_NAME USING ERRCODE = '42501';
END
$$;

CREATE TRIGGER "AuditEvent_append_only" BEFORE UPDATE OR DELETE ON "AuditEvent"
  FOR EACH ROW EXECUTE FUNCTION countersign_refuse_change();
CREATE TRIGGER "AuditEvent_no_truncate" BEFORE TRUNCATE ON "AuditEvent"
  FOR EACH STATEMENT EXECUTE FUNCTION countersign_refuse_change();
CREATE TRIGGER "LedgerEntry_append_only" BEFORE UPDATE OR DELETE ON "LedgerEntry"
  FOR EACH ROW EXECUTE FUNCTION countersign_refuse_change();
CREATE TRIGGER "LedgerEntry_no_truncate" BEFORE TRUNCATE ON "LedgerEntry"
  FOR EACH STATEMENT EXECUTE FUNCTION countersign_refuse_change();
CREATE TRIGGER "ApprovalDecision_append_only" BEFORE UPDATE OR DELETE ON "ApprovalDecision"
  FOR EACH ROW EXECUTE FUNCTION countersign_refuse_change();

-- Money is never negative or zero on a ledger row, and an order's amount is never negative.
ALTER TABLE "LedgerEntry" ADD CONSTRAINT "LedgerEntry_amount_positive" CHECK ("amountCents" > 0);
ALTER TABLE "Order" ADD CONSTRAINT "Order_amount_nonnegative" CHECK ("amountCents" >= 0);
ALTER TABLE "RefundProposal" ADD CONSTRAINT "RefundProposal_amount_positive" CHECK ("amountCents" > 0);

-- Full-text search over policy passages: one English vector per chunk, heading weighted above text,
-- kept by a trigger so that every writer (seed, admin, import) produces the same vector.
CREATE FUNCTION countersign_policy_chunk_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."search" := setweight(to_tsvector('english', coalesce(NEW."heading", '')), 'A')
               || setweight(to_tsvector('english', coalesce(NEW."text", '')), 'B');
  RETURN NEW;
END
$$;

CREATE TRIGGER "PolicyChunk_search" BEFORE INSERT OR UPDATE OF "heading", "text" ON "PolicyChunk"
  FOR EACH ROW EXECUTE FUNCTION countersign_policy_chunk_search();
