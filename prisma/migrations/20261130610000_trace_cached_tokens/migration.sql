-- AlterTable
ALTER TABLE "TraceEvent" ADD COLUMN     "cachedTokens" INTEGER;
