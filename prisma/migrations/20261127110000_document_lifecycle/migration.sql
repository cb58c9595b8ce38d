-- Policy versions past draft are evidence, or were: what was reviewed is what is published, and what
-- was published stays readable as it was. Only a draft's content and passages may change; a version
-- in review, published or retired moves only its state columns, along draft → in_review → published
-- → retired (and in_review → draft), never back from retired. A version is deleted only as a draft.
-- Enforced here, for every writer, so no code path (nor a raw UPDATE) can rewrite history.

CREATE FUNCTION countersign_policy_document_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD."status" <> 'draft' THEN
      RAISE EXCEPTION 'policy_document_immutable: % is %, only a draft may be deleted', OLD."docKey" || '@' || OLD."version", OLD."status"
        USING ERRCODE = '42501';
    END IF;
    RETURN OLD;
  END IF;
  -- The content hash is the body's, whoever writes the row: a publish names exactly this text.
  IF NEW."contentHash" IS DISTINCT FROM encode(sha256(convert_to(NEW."body", 'UTF8')), 'hex') THEN
    RAISE EXCEPTION 'policy_document_hash: the content hash of % is not the sha256 of its body', NEW."docKey" || '@' || NEW."version"
      USING ERRCODE = '23514';
  END IF;
  IF TG_OP = 'INSERT' THEN
    RETURN NEW;
  END IF;
  IF OLD."status" <> 'draft' AND (NEW."docKey", NEW."version", NEW."title", NEW."section", NEW."body", NEW."source", NEW."locale",
      NEW."owner", NEW."authorId", NEW."contentHash", NEW."createdAt")
      IS DISTINCT FROM (OLD."docKey", OLD."version", OLD."title", OLD."section", OLD."body", OLD."source", OLD."locale",
      OLD."owner", OLD."authorId", OLD."contentHash", OLD."createdAt") THEN
    RAISE EXCEPTION 'policy_document_immutable: % is %, its content cannot change', OLD."docKey" || '@' || OLD."version", OLD."status"
      USING ERRCODE = '42501';
  END IF;
  IF NEW."status" <> OLD."status" AND (OLD."status", NEW."status") NOT IN (
      ('draft'::"DocumentStatus", 'in_review'::"DocumentStatus"), ('in_review', 'draft'), ('in_review', 'published'), ('published', 'retired')) THEN
    RAISE EXCEPTION 'policy_document_transition: % cannot go from % to %', OLD."docKey" || '@' || OLD."version", OLD."status", NEW."status"
      USING ERRCODE = '42501';
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER "PolicyDocument_guard" BEFORE INSERT OR UPDATE OR DELETE ON "PolicyDocument"
  FOR EACH ROW EXECUTE FUNCTION countersign_policy_document_guard();

-- A passage belongs to its version's content: it changes only while the version is a draft. (A draft
-- deleted takes its passages with it: the cascade finds the draft, or no row at all.)
CREATE FUNCTION countersign_policy_chunk_guard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  doc_status "DocumentStatus";
  doc_id UUID;
BEGIN
  doc_id := CASE WHEN TG_OP = 'DELETE' THEN OLD."documentId" ELSE NEW."documentId" END;
  SELECT d."status" INTO doc_status FROM "PolicyDocument" d WHERE d."id" = doc_id;
  IF doc_status IS NOT NULL AND doc_status <> 'draft' THEN
    RAISE EXCEPTION 'policy_document_immutable: the passages of a % version cannot change', doc_status USING ERRCODE = '42501';
  END IF;
  IF TG_OP = 'UPDATE' AND NEW."documentId" <> OLD."documentId" THEN
    SELECT d."status" INTO doc_status FROM "PolicyDocument" d WHERE d."id" = OLD."documentId";
    IF doc_status IS NOT NULL AND doc_status <> 'draft' THEN
      RAISE EXCEPTION 'policy_document_immutable: the passages of a % version cannot change', doc_status USING ERRCODE = '42501';
    END IF;
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END
$$;

CREATE TRIGGER "PolicyChunk_guard" BEFORE INSERT OR UPDATE OR DELETE ON "PolicyChunk"
  FOR EACH ROW EXECUTE FUNCTION countersign_policy_chunk_guard();

-- The versions in effect at a moment, one per document key: the newest published version whose time
-- has come (effectiveAt, else publishedAt; a version published before either was recorded is in effect).
-- A version scheduled for later leaves the one before it in effect until then; a retired version is
-- never in effect. Retrieval reads evidence only through this rule, so it is written once, here.
-- `candidate`, when given, is counted as published now in place of its key's other versions: the
-- corpus as it would be once that version is published (an evaluation before publishing).
-- Timestamps are stored in UTC without a zone (Prisma's DateTime), so "now" is taken in UTC.
CREATE FUNCTION countersign_policy_in_effect(at_time TIMESTAMP(3) DEFAULT (now() AT TIME ZONE 'UTC'), candidate UUID DEFAULT NULL)
RETURNS TABLE ("id" UUID) LANGUAGE sql STABLE AS $$
  SELECT DISTINCT ON (d."docKey") d."id"
  FROM "PolicyDocument" d
  WHERE (d."status" = 'published' AND coalesce(d."effectiveAt", d."publishedAt", '-infinity'::timestamp) <= at_time)
     OR d."id" = candidate
  ORDER BY d."docKey", (d."id" = candidate) IS TRUE DESC, d."version" DESC
$$;
