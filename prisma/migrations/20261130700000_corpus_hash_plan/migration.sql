-- The corpus hash, the same function in PL/pgSQL. As a SQL function that cannot be inlined (it
-- aggregates), its body was parsed and planned again on every call: about three quarters of its cost,
-- and it is read on every run's start and every approval's load. PL/pgSQL keeps the statement's plan
-- for the session. Same arguments, same result (lib/policy/corpus-staleness.integration.test.ts writes the definition out again).
CREATE OR REPLACE FUNCTION countersign_corpus_hash(at_time TIMESTAMP(3) DEFAULT (now() AT TIME ZONE 'UTC'), candidate UUID DEFAULT NULL)
RETURNS TEXT LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (
    SELECT encode(sha256(convert_to(coalesce(
             string_agg(d."docKey" || '@' || d."version" || ' ' || d."contentHash", E'\n' ORDER BY d."docKey" COLLATE "C"), ''), 'UTF8')), 'hex')
    FROM countersign_policy_in_effect(at_time, candidate) e
    JOIN "PolicyDocument" d ON d."id" = e."id");
END
$$;
