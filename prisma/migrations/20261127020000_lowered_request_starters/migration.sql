-- A lowered refund asks at least what the refund it replaces asked, and whoever lowered it is one of
-- its starters: a person who lowers a two-person refund cannot then decide it alone, nor be one of
-- its two approvers.
--
-- Who lowered a request is already recorded: each edit's "editedById", along the chain of
-- "editedFromId". countersign_request_lineage gives a request and every request it replaced; the
-- decision rules (lib/approvals/load-decidable.ts), the refund executor
-- (lib/ledger/execute-approved-refund.ts) and the trigger below read the lowerers through it, beside
-- the run's starter, and the executor also the most approvals any request of the lineage asked.

CREATE FUNCTION countersign_request_lineage(request_id UUID) RETURNS UUID[] LANGUAGE sql STABLE AS $$
  WITH RECURSIVE chain AS (
    SELECT r."id", r."editedFromId" FROM "ApprovalRequest" r WHERE r."id" = request_id
    UNION
    SELECT p."id", p."editedFromId" FROM "ApprovalRequest" p JOIN chain c ON p."id" = c."editedFromId"
  )
  SELECT coalesce(array_agg(c."id"), '{}'::uuid[]) FROM chain c
$$;

-- The decision trigger of 20261123110000_two_person, with the lowerers beside the run's starter.
CREATE OR REPLACE FUNCTION countersign_decision_fits_request() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r RECORD;
BEGIN
  SELECT req."approvalsRequired", req."digest", run."startedById",
         ARRAY(SELECT e."editedById" FROM "ApprovalRequest" e WHERE e."id" = ANY (countersign_request_lineage(req."id")) AND e."editedById" IS NOT NULL) AS "lowerers"
    INTO r
    FROM "ApprovalRequest" req LEFT JOIN "AgentRun" run ON run."id" = req."runId"
   WHERE req."id" = NEW."approvalRequestId";
  IF NOT FOUND THEN
    RAISE EXCEPTION 'decision for a missing request' USING ERRCODE = 'check_violation';
  END IF;
  IF NEW."seat" > r."approvalsRequired" THEN
    RAISE EXCEPTION 'request needs % approval(s); seat % is not one of them', r."approvalsRequired", NEW."seat" USING ERRCODE = 'check_violation';
  END IF;
  IF NEW."digest" IS DISTINCT FROM r."digest" THEN
    RAISE EXCEPTION 'a decision is bound to its request''s digest' USING ERRCODE = 'check_violation';
  END IF;
  IF r."approvalsRequired" = 2 AND NEW."decision" = 'approve' AND (NEW."automatic" OR NEW."deciderId" IS NULL OR NEW."deciderId" = r."startedById") THEN
    RAISE EXCEPTION 'a two-person request is decided by people other than the run''s starter' USING ERRCODE = 'check_violation';
  END IF;
  IF r."approvalsRequired" = 2 AND NEW."decision" = 'approve' AND NEW."deciderId" = ANY (r."lowerers") THEN
    RAISE EXCEPTION 'a lowered two-person request is decided by people other than whoever lowered it' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;

-- The edit trigger of 20261123110000_two_person, which now also holds the lowered request to the
-- approvals and the role its original asked: never fewer approvals, never a weaker role (the
-- approval ranks of lib/contracts/roles.ts: REVIEWER below SPECIALIST below ADMIN).
CREATE OR REPLACE FUNCTION countersign_edit_only_lowers() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  before_p RECORD;
  after_p RECORD;
BEGIN
  IF NEW."editedFromId" IS NULL THEN
    RETURN NEW;
  END IF;
  SELECT p."orderId", p."amountCents", p."currency", p."reason", r."approvalsRequired", r."requiredRole" INTO before_p
    FROM "ApprovalRequest" r JOIN "RefundProposal" p ON p."id" = r."proposalId" WHERE r."id" = NEW."editedFromId";
  IF NOT FOUND THEN
    RAISE EXCEPTION 'an edit replaces a refund request' USING ERRCODE = 'check_violation';
  END IF;
  SELECT p."orderId", p."amountCents", p."currency", p."reason" INTO after_p
    FROM "RefundProposal" p WHERE p."id" = NEW."proposalId";
  IF NOT FOUND
     OR after_p."orderId" <> before_p."orderId" OR after_p."currency" <> before_p."currency" OR after_p."reason" <> before_p."reason"
     OR after_p."amountCents" >= before_p."amountCents" THEN
    RAISE EXCEPTION 'an edit may only lower the refund it replaces' USING ERRCODE = 'check_violation';
  END IF;
  IF NEW."approvalsRequired" < before_p."approvalsRequired"
     OR array_position(ARRAY['REVIEWER', 'SPECIALIST', 'ADMIN'], NEW."requiredRole"::text)
        < array_position(ARRAY['REVIEWER', 'SPECIALIST', 'ADMIN'], before_p."requiredRole"::text) THEN
    RAISE EXCEPTION 'a lowered request asks at least the approvals and the role of the request it replaces' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
