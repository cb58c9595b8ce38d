-- Least privilege: the app connects with a role of its own, which may read and add to the
-- append-only tables and nothing more (granted by the owner after every deploy, see
-- lib/db/privileges.ts; roles are the deployer's, never a migration's). The owner is still held by
-- the triggers: approval decisions lacked the TRUNCATE guard the audit trail and the ledger have,
-- and a TRUNCATE fires no row trigger.
CREATE TRIGGER "ApprovalDecision_no_truncate" BEFORE TRUNCATE ON "ApprovalDecision"
  FOR EACH STATEMENT EXECUTE FUNCTION countersign_refuse_change();
