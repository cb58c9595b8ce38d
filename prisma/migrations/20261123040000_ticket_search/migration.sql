-- Queue search: words of the subject and body through full-text search, fragments of the customer's
-- email and the order id through trigrams. Created by the owner (migrations run as it); pg_trgm is a
-- trusted extension, and every embedded database is opened with its bundle (lib/db/pglite.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- The words of subject and body as a stored vector, kept by a trigger like the policy passages' (a
-- plan that reads tickets by date and filters them then compares a stored vector, instead of
-- parsing each body again: at 100k tickets that was seconds for a rare match).
ALTER TABLE "Ticket" ADD COLUMN "searchWords" tsvector;

CREATE FUNCTION countersign_ticket_search_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."searchWords" := to_tsvector('english'::regconfig, NEW."subject" || ' ' || NEW."body");
  RETURN NEW;
END $$;
CREATE TRIGGER "Ticket_search_words" BEFORE INSERT OR UPDATE OF "subject", "body" ON "Ticket"
  FOR EACH ROW EXECUTE FUNCTION countersign_ticket_search_words();

UPDATE "Ticket" SET "searchWords" = to_tsvector('english'::regconfig, "subject" || ' ' || "body");

CREATE INDEX "Ticket_search_words_idx" ON "Ticket" USING GIN ("searchWords");
CREATE INDEX "Ticket_customerEmail_trgm_idx" ON "Ticket" USING GIN (lower("customerEmail") gin_trgm_ops);
CREATE INDEX "Ticket_orderRef_trgm_idx" ON "Ticket" USING GIN (lower("orderRef") gin_trgm_ops);

-- A person's worklist ("Mine"), oldest first: the whole order in the index, so no plan scans every
-- ticket by date looking for the few a person holds.
CREATE INDEX "Ticket_assigneeId_createdAt_id_idx" ON "Ticket"("assigneeId", "createdAt", "id");
