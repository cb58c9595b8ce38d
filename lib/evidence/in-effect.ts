// Which policy versions are in effect: one SQL rule for every reader of "the current policy"
// (retrieval, the languages the policies cover). Written once so that a version scheduled for later,
// a draft or a retired version is left out the same way everywhere.
import { Prisma } from "../db";

/**
 * The versions in effect now, as a subquery of PolicyDocument rows: for each docKey, the newest
 * published version whose effectiveAt (when it was not scheduled: publishedAt; a seeded row without
 * either: createdAt) has come. A version scheduled for later does not hide the one in effect until its
 * time comes; a draft, a version in review and a retired version are never in effect.
 */
export const IN_EFFECT_DOCUMENTS = Prisma.sql`(
  SELECT DISTINCT ON (pd."docKey") pd.id, pd."docKey", pd.version, pd.title, pd.locale
  FROM "PolicyDocument" pd
  WHERE pd.status = 'published' AND coalesce(pd."effectiveAt", pd."publishedAt", pd."createdAt") <= now()
  ORDER BY pd."docKey", pd.version DESC)`;

/** A locale's language ("es-MX" → "es"), the unit retrieval and language detection work in. */
export function languageOfLocale(locale: string): string {
  return locale.split("-")[0]!.toLowerCase();
}
