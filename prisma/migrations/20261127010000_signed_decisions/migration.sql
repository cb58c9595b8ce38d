-- Approval decisions signed by the app (lib/audit/decision-signature.ts): an Ed25519 signature with
-- the audit signing key, which the database never sees, over the request, its digest, the decision,
-- the decider, the seat of approvalsRequired and the decision's time (createdAt, as stored), and the
-- id of the key that made it.
ALTER TABLE "ApprovalDecision" ADD COLUMN     "keyId" TEXT,
ADD COLUMN     "signature" TEXT;

-- Every decision written from now on carries its signature; NOT VALID leaves the rows written before
-- this migration as they are (they cannot be signed after the fact: nobody can tell now who decided
-- them). An unsigned row is therefore one from before: the executor refuses it (an approved refund
-- from before that was never executed goes back to a person, blocked:not_approved) and
-- `npm run audit:verify` names it. The app's role does not own the table and cannot drop the check.
ALTER TABLE "ApprovalDecision" ADD CONSTRAINT "ApprovalDecision_signed"
  CHECK ("signature" IS NOT NULL AND "keyId" IS NOT NULL) NOT VALID;
