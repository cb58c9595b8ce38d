-- Fragment search over the distinct customer emails and order ids, not over every ticket. A trigram
-- index on the tickets themselves reads a posting list per trigram as long as the tickets that share
-- it ("cus", "ord", "-s0": nearly all of them), so a fragment cost 15-25 ms at 100k tickets however
-- few it matched. The distinct values are far fewer than the tickets; the fragment is matched against
-- them (a small trigram index), and the tickets holding the matched values are read through btree
-- indexes by equality. A key outlives the tickets that carried it (nothing is ever removed): a key
-- with no ticket simply finds none.
CREATE TABLE "TicketSearchKey" (
  "kind" TEXT NOT NULL,
  "key"  TEXT NOT NULL,
  CONSTRAINT "TicketSearchKey_pkey" PRIMARY KEY ("kind", "key"),
  CONSTRAINT "TicketSearchKey_kind_check" CHECK ("kind" IN ('email', 'order'))
);
CREATE INDEX "TicketSearchKey_key_trgm_idx" ON "TicketSearchKey" USING GIN ("key" gin_trgm_ops);

CREATE FUNCTION countersign_ticket_search_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "TicketSearchKey" ("kind", "key")
  SELECT k.kind, k.key FROM (VALUES ('email', lower(NEW."customerEmail")), ('order', lower(NEW."orderRef"))) AS k(kind, key)
  WHERE k.key IS NOT NULL AND k.key <> ''
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER "Ticket_search_keys" AFTER INSERT OR UPDATE OF "customerEmail", "orderRef" ON "Ticket"
  FOR EACH ROW EXECUTE FUNCTION countersign_ticket_search_keys();

INSERT INTO "TicketSearchKey" ("kind", "key")
SELECT DISTINCT 'email', lower("customerEmail") FROM "Ticket" WHERE "customerEmail" <> ''
UNION
SELECT DISTINCT 'order', lower("orderRef") FROM "Ticket" WHERE "orderRef" IS NOT NULL AND "orderRef" <> '';

-- The tickets of a matched order id, by equality (lower(customerEmail) has its index already).
CREATE INDEX "Ticket_lower_orderRef_idx" ON "Ticket" (lower("orderRef"));

-- The trigram indexes on the tickets are no longer read; every intake paid to keep them.
DROP INDEX "Ticket_customerEmail_trgm_idx";
DROP INDEX "Ticket_orderRef_trgm_idx";
