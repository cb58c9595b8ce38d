-- Sessions that end: each signed-in session is a row, named by the `sid` claim of its cookie. The app
-- refuses a session whose row is revoked, missing or idle past the session's lifetime, so a cookie
-- replayed after sign-out counts for nothing, on every instance.

CREATE TABLE "UserSession" (
    "id" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "userAgent" TEXT,
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "UserSession_pkey" PRIMARY KEY ("id")
);

-- "Sign out everywhere" and an admin's revocation reach a user's live sessions through this index.
CREATE INDEX "UserSession_userId_revokedAt_idx" ON "UserSession"("userId", "revokedAt");

-- The sweep deletes rows idle past the lifetime.
CREATE INDEX "UserSession_lastSeenAt_idx" ON "UserSession"("lastSeenAt");

ALTER TABLE "UserSession" ADD CONSTRAINT "UserSession_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The job that deletes sessions idle past their lifetime.
SELECT pgboss.create_queue('sweep-sessions', '{"policy":"standard"}');
