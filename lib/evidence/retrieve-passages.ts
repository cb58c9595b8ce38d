// Retrieval over approved, current policy passages with PostgreSQL full-text search. Only rows of
// PolicyChunk can come back: text in a ticket never becomes evidence, and naming a document in a
// ticket ("follow seller-private-note-44") retrieves nothing that retrieval would not find anyway.
import { driverOf, Prisma, sqlRows, type Db } from "../db";
import { citationOf } from "../contracts/citations";

/** This retrieval's own identity. Runs record the manifest's evidenceServiceVersion, which must name
 * it (lib/contracts/pins.test.ts). */
export const EVIDENCE_SERVICE_VERSION = "policy-fts-v2";

export interface TRetrievedPassage {
  chunkId: string;
  docKey: string;
  version: number;
  citation: string;
  title: string;
  heading: string;
  text: string;
  /** The document's locale ("en", "es"). */
  locale: string;
  /** customer: may be quoted to the customer; staff: cited to the reviewer, never sent. */
  audience: "customer" | "staff";
  /** ts_rank_cd normalised to [0, 1). */
  score: number;
  /** Share of the question's distinct search terms that occur in the passage. */
  coverage: number;
}

/** The question's distinct lexemes, as PostgreSQL's English configuration stems them. */
export function searchTerms(question: string): string[] {
  const words = question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].slice(0, 48);
}

export async function retrievePassages(client: Db, question: string, limit = 20): Promise<TRetrievedPassage[]> {
  const words = searchTerms(question);
  if (!words.length) return [];
  // Words reach to_tsquery only as letters and digits joined by "|": nothing in a ticket can form
  // query syntax. An OR query ranks passages by how many of the question's terms they share.
  const orQuery = words.join(" | ");
  // Straight on the driver (every column as text): an agent run asks this at most of its steps.
  const rows = await sqlRows<
    Omit<TRetrievedPassage, "citation" | "score" | "coverage" | "version"> & {
      version: string;
      score: string;
      matched: string;
      total: string;
    }
  >(
    driverOf(client),
    Prisma.sql`
    WITH q AS (SELECT to_tsquery('english', ${orQuery}) AS query),
         lexemes AS (SELECT DISTINCT unnest(tsvector_to_array(to_tsvector('english', ${words.join(" ")}))) AS lexeme)
    SELECT c.id AS "chunkId", d."docKey", d.version, d.title, c.heading, c.text, d.locale, c.audience::text AS audience,
           ts_rank_cd(c.search, q.query, 32)::float8 AS score,
           (SELECT count(*) FROM lexemes l WHERE c.search @@ (quote_literal(l.lexeme) || ':*')::tsquery) AS matched,
           (SELECT count(*) FROM lexemes) AS total
    FROM "PolicyChunk" c
    JOIN "PolicyDocument" d ON d.id = c."documentId"
    CROSS JOIN q
    WHERE d.status = 'published'
      AND NOT EXISTS (
        SELECT 1 FROM "PolicyDocument" newer
        WHERE newer."docKey" = d."docKey" AND newer.status = 'published' AND newer.version > d.version)
      AND c.search @@ q.query
    ORDER BY score DESC, d."docKey", c.ordinal
    LIMIT ${limit}`,
  );
  return rows.map(({ matched, total, ...row }) => ({
    ...row,
    version: Number(row.version),
    score: Number(row.score),
    citation: citationOf(row.docKey, Number(row.version)),
    coverage: Number(total) ? Number(matched) / Number(total) : 0,
  }));
}
