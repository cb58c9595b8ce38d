-- Queue search: words of the subject and body through full-text search, fragments of the customer's
-- email and the order id through trigrams. Created by the owner (migrations run as it); pg_trgm is a
-- trusted extension, and every embedded database is opened with its bundle (lib/db/pglite.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- The expression must match ticketSearchVector in lib/tickets/search-tickets.ts word for word, or the
-- planner cannot use the index.
CREATE INDEX "Ticket_search_words_idx" ON "Ticket" USING GIN (to_tsvector('english'::regconfig, "subject" || ' ' || "body"));
CREATE INDEX "Ticket_customerEmail_trgm_idx" ON "Ticket" USING GIN (lower("customerEmail") gin_trgm_ops);
CREATE INDEX "Ticket_orderRef_trgm_idx" ON "Ticket" USING GIN (lower("orderRef") gin_trgm_ops);

-- A person's worklist ("Mine"), oldest first: the whole order in the index, so no plan scans every
-- ticket by date looking for the few a person holds.
CREATE INDEX "Ticket_assigneeId_createdAt_id_idx" ON "Ticket"("assigneeId", "createdAt", "id");
