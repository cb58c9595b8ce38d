-- Approvals a team can trust with money: a request needs one or two approvals, each its own row, and
-- a reviewer may lower a refund before approving it (a new request, bound to its own digest).
--
-- The guarantee, kept here whoever writes: an approval request needs N approvals (1 or 2); each
-- decision is its own row, unique per (request, person) and per (request, seat), with at most N seats;
-- every decision is bound to the request's digest; on a two-person request neither approver may be the
-- person who started the run, and no system approval counts. One rejection ends the request. An
-- edited request points at the request it replaces and may only lower its refund.

ALTER TABLE "ApprovalRequest"
  ADD COLUMN "approvalsRequired" SMALLINT NOT NULL DEFAULT 1,
  ADD COLUMN "editedFromId" UUID,
  ADD COLUMN "editedById" UUID;
ALTER TABLE "ApprovalRequest" ADD CONSTRAINT "ApprovalRequest_approvals_required_check" CHECK ("approvalsRequired" IN (1, 2));
ALTER TABLE "ApprovalRequest" ADD CONSTRAINT "ApprovalRequest_editedFromId_fkey" FOREIGN KEY ("editedFromId") REFERENCES "ApprovalRequest"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "ApprovalRequest" ADD CONSTRAINT "ApprovalRequest_editedById_fkey" FOREIGN KEY ("editedById") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "ApprovalRequest" ADD CONSTRAINT "ApprovalRequest_edit_pair_check" CHECK (("editedFromId" IS NULL) = ("editedById" IS NULL));
-- One edit per request: an edited request replaces its original once.
CREATE UNIQUE INDEX "ApprovalRequest_editedFromId_key" ON "ApprovalRequest"("editedFromId");

ALTER TABLE "ApprovalDecision" ADD COLUMN "seat" SMALLINT NOT NULL DEFAULT 1;
ALTER TABLE "ApprovalDecision" ADD CONSTRAINT "ApprovalDecision_seat_check" CHECK ("seat" IN (1, 2));
DROP INDEX "ApprovalDecision_approvalRequestId_key";
CREATE UNIQUE INDEX "ApprovalDecision_approvalRequestId_seat_key" ON "ApprovalDecision"("approvalRequestId", "seat");
CREATE UNIQUE INDEX "ApprovalDecision_approvalRequestId_deciderId_key" ON "ApprovalDecision"("approvalRequestId", "deciderId");

CREATE FUNCTION countersign_decision_fits_request() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r RECORD;
BEGIN
  SELECT req."approvalsRequired", req."digest", run."startedById"
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
  RETURN NEW;
END $$;
CREATE TRIGGER "ApprovalDecision_fits_request" BEFORE INSERT ON "ApprovalDecision"
  FOR EACH ROW EXECUTE FUNCTION countersign_decision_fits_request();

-- An edited request only lowers the refund it replaces: the same order, currency and reason, a smaller
-- positive amount.
CREATE FUNCTION countersign_edit_only_lowers() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  before_p RECORD;
  after_p RECORD;
BEGIN
  IF NEW."editedFromId" IS NULL THEN
    RETURN NEW;
  END IF;
  SELECT p."orderId", p."amountCents", p."currency", p."reason" INTO before_p
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
  RETURN NEW;
END $$;
CREATE TRIGGER "ApprovalRequest_edit_only_lowers" BEFORE INSERT ON "ApprovalRequest"
  FOR EACH ROW EXECUTE FUNCTION countersign_edit_only_lowers();
