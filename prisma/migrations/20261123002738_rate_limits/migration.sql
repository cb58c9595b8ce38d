-- Rate-limit counters for the helpdesk's endpoints (lib/intake/rate-limits.ts): the layout of
-- rate-limiter-flexible's PostgreSQL store, created here so that the app's role never creates a
-- table at run time. The deploy grants the app's role SELECT, INSERT, UPDATE and DELETE on it.
CREATE TABLE "RateLimitCounter" (
    "key" VARCHAR(255) NOT NULL,
    "points" INTEGER NOT NULL DEFAULT 0,
    "expire" BIGINT,

    CONSTRAINT "RateLimitCounter_pkey" PRIMARY KEY ("key")
);
