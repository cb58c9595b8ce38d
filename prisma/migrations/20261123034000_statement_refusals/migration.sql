-- A refusal raised from inside a statement. A write that is one statement on its own (no BEGIN or
-- COMMIT around it: decideApproval) checks in its last select-list item whether its CTEs did what
-- they must, and calls this when they did not: the statement fails, so everything its CTEs wrote –
-- the audit event first – is rolled back with it, as a transaction's ROLLBACK would. The caller
-- reads the refusal from the error: SQLSTATE CS409, the refusal as the message, what it found as
-- the detail.
CREATE FUNCTION countersign_refuse(refusal text, seen text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'CS409', MESSAGE = refusal, DETAIL = coalesce(seen, '');
END $$;
