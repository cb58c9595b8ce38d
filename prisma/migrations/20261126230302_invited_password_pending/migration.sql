-- AlterTable
ALTER TABLE "User" ADD COLUMN     "passwordPending" BOOLEAN NOT NULL DEFAULT false;

-- People invited before the column existed whose link was never used: pending, as a new invitation is
-- (their invitation and the use of a link are both in the audit trail).
UPDATE "User" u SET "passwordPending" = true
WHERE EXISTS (SELECT 1 FROM "AuditEvent" e WHERE e."action" = 'user.invited' AND e."subjectType" = 'user' AND e."subjectId" = u."id"::text)
  AND NOT EXISTS (SELECT 1 FROM "AuditEvent" e WHERE e."action" = 'user.password_set' AND e."subjectType" = 'user' AND e."subjectId" = u."id"::text);
