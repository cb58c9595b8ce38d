-- CreateIndex
CREATE INDEX "RefundProposal_runId_idx" ON "RefundProposal"("runId");
