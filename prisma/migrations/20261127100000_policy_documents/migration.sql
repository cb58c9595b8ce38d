-- Policy documents as the team's own content: each version has a locale, an owner, an author, a
-- content hash and a state (draft → in_review → published → retired); a published version may be
-- scheduled to take effect later. Each passage is for customers or for staff only. Passages are
-- searched with the text-search configuration of their document's locale.

ALTER TYPE "DocumentStatus" RENAME VALUE 'approved' TO 'published';
ALTER TYPE "DocumentStatus" ADD VALUE 'in_review' BEFORE 'published';

CREATE TYPE "PassageAudience" AS ENUM ('customer', 'staff');

ALTER TABLE "PolicyDocument"
  ADD COLUMN "locale" TEXT NOT NULL DEFAULT 'en',
  ADD COLUMN "owner" TEXT,
  ADD COLUMN "authorId" UUID REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  ADD COLUMN "contentHash" TEXT,
  ADD COLUMN "submittedAt" TIMESTAMP(3),
  ADD COLUMN "submittedById" UUID REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  ADD COLUMN "publishedAt" TIMESTAMP(3),
  ADD COLUMN "publishedById" UUID REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  ADD COLUMN "effectiveAt" TIMESTAMP(3),
  ADD COLUMN "retiredAt" TIMESTAMP(3),
  ADD COLUMN "retiredById" UUID REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE,
  ADD COLUMN "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- The hash of a version's source text (its Markdown body, UTF-8): what a publish and an evaluation name.
UPDATE "PolicyDocument" SET "contentHash" = encode(sha256(convert_to("body", 'UTF8')), 'hex');
ALTER TABLE "PolicyDocument" ALTER COLUMN "contentHash" SET NOT NULL;
ALTER TABLE "PolicyDocument" ADD CONSTRAINT "PolicyDocument_locale_format" CHECK ("locale" ~ '^[a-z]{2}(-[A-Z]{2})?$');
CREATE INDEX "PolicyDocument_docKey_status_idx" ON "PolicyDocument"("docKey", "status");

ALTER TABLE "PolicyChunk" ADD COLUMN "audience" "PassageAudience" NOT NULL DEFAULT 'customer';

-- The PostgreSQL text-search configuration for a locale ("es", "es-MX" → spanish); 'simple' for one
-- PostgreSQL has no stemmer for. Passages and questions of one locale are stemmed alike.
CREATE FUNCTION countersign_search_config(locale TEXT) RETURNS regconfig LANGUAGE sql IMMUTABLE AS $$
  SELECT (CASE split_part(lower(coalesce(locale, 'en')), '-', 1)
    WHEN 'en' THEN 'english' WHEN 'es' THEN 'spanish' WHEN 'de' THEN 'german' WHEN 'fr' THEN 'french'
    WHEN 'pt' THEN 'portuguese' WHEN 'it' THEN 'italian' WHEN 'nl' THEN 'dutch' WHEN 'da' THEN 'danish'
    WHEN 'sv' THEN 'swedish' WHEN 'nb' THEN 'norwegian' WHEN 'no' THEN 'norwegian' WHEN 'fi' THEN 'finnish'
    ELSE 'simple' END)::regconfig
$$;

CREATE OR REPLACE FUNCTION countersign_policy_chunk_search() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  config regconfig;
BEGIN
  SELECT countersign_search_config(d."locale") INTO config FROM "PolicyDocument" d WHERE d."id" = NEW."documentId";
  config := coalesce(config, 'english'::regconfig);
  NEW."search" := setweight(to_tsvector(config, coalesce(NEW."heading", '')), 'A')
               || setweight(to_tsvector(config, coalesce(NEW."text", '')), 'B');
  RETURN NEW;
END
$$;
