-- Indexes for the agent's reads on a large database.

-- A refund proposal sums the day's auto-approved refunds (the daily cap): the index reaches today's
-- auto-approved live proposals directly, however many proposals there are.
CREATE INDEX "RefundProposal_decision_simulated_createdAt_idx" ON "RefundProposal"("decision", "simulated", "createdAt");

-- Order ids are looked up as customers type them, whatever the case: an exact comparison on the
-- upper-cased id. Prisma's schema language cannot express an index on an expression, so this one is
-- written here only (schema.prisma says so beside the model).
CREATE INDEX "Order_upper_id_idx" ON "Order"(upper("id"));
