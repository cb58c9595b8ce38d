// Which policy versions are in effect, for every reader of "the current policy" (retrieval, the
// languages the policies cover): the database's one rule, countersign_policy_in_effect (migration
// 20261127110000_document_lifecycle) – for each key, the newest published version whose effectiveAt
// (else publishedAt) has come, in UTC. A version scheduled for later leaves the one before it in effect
// until its time; a draft, a version in review and a retired version are never in effect.
import { Prisma } from "../db";

/** The versions in effect now, as a subquery of PolicyDocument rows. */
export const IN_EFFECT_DOCUMENTS = Prisma.sql`(
  SELECT pd.id, pd."docKey", pd.version, pd.title, pd.locale, pd."contentHash"
  FROM countersign_policy_in_effect() e JOIN "PolicyDocument" pd ON pd.id = e.id)`;

/** A locale's language ("es-MX" → "es"), the unit retrieval and language detection work in. */
export function languageOfLocale(locale: string): string {
  return locale.split("-")[0]!.toLowerCase();
}
