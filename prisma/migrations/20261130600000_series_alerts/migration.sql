-- CreateTable
CREATE TABLE "SeriesAlert" (
    "id" UUID NOT NULL,
    "series" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "value" DOUBLE PRECISION NOT NULL,
    "threshold" DOUBLE PRECISION NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "notifiedAt" TIMESTAMP(3),

    CONSTRAINT "SeriesAlert_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SeriesAlert_notifiedAt_createdAt_idx" ON "SeriesAlert"("notifiedAt", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "SeriesAlert_series_day_key" ON "SeriesAlert"("series", "day");

-- The routine job that evaluates the daily series against their thresholds and posts the alerts.
SELECT pgboss.create_queue('series-alerts', '{"policy":"standard"}');
