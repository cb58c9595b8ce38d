// Every policy document, one row per key: its latest version (state, locale, owner, author, when it
// last changed) and the version in effect now, if any. Filtered and paged in the database, so a team
// with hundreds of documents gets one page in one statement.
import type { DocumentStatus } from "../../generated/prisma/enums";
import { driverOf, Prisma, sqlRows, db as defaultDb, type Db } from "../db";
import type { TRowText } from "../db/typed-sql";
import { timestampFromText } from "../db/driver";

export const DOCUMENT_PAGE_SIZES = { default: 50, max: 200 } as const;

export interface TDocumentFilter {
  /** Words in the key or the title (case-insensitive). */
  query?: string;
  /** The latest version's state. */
  status?: DocumentStatus;
  locale?: string;
}

export interface TDocumentRow {
  docKey: string;
  documentId: string;
  version: number;
  status: DocumentStatus;
  title: string;
  locale: string;
  owner: string | null;
  authorName: string | null;
  updatedAt: Date;
  /** The version retrieval uses now; null when none is in effect. */
  inEffectVersion: number | null;
  versions: number;
}

type TRow = TRowText<"PolicyDocument", "docKey" | "version" | "status" | "title" | "locale" | "owner" | "updatedAt"> & {
  documentId: string;
  authorName: string | null;
  inEffectVersion: string | null;
  versions: string;
  total: string;
};

const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listDocuments(input: { client?: Db; filter?: TDocumentFilter; page?: { number?: number; size?: number } } = {}) {
  const client = input.client ?? defaultDb();
  const { query, status, locale } = input.filter ?? {};
  const size = Math.min(Math.max(1, Math.floor(input.page?.size ?? DOCUMENT_PAGE_SIZES.default)), DOCUMENT_PAGE_SIZES.max);
  const number = Math.max(1, Math.floor(input.page?.number ?? 1));
  const conditions = [
    query?.trim() ? Prisma.sql`(l."docKey" ILIKE ${like(query.trim())} OR l."title" ILIKE ${like(query.trim())})` : null,
    status ? Prisma.sql`l."status"::text = ${status}` : null,
    locale ? Prisma.sql`l."locale" = ${locale}` : null,
  ].filter((c): c is Prisma.Sql => c !== null);
  // The latest versions are filtered and counted, then only the page's rows are joined to their author
  // and the version in effect: joined before the LIMIT, as the count over them once forced, every
  // key of a large list was, each against every version in effect. The count stands beside the page
  // (a row of nulls when the page is past the end), so a page past the last one still says the total.
  const rows = await sqlRows<TRow>(
    driverOf(client),
    Prisma.sql`
    WITH latest AS (
      SELECT DISTINCT ON (d."docKey") d."docKey", d."id", d."version", d."status", d."title", d."locale", d."owner", d."updatedAt",
             d."authorId", count(*) OVER (PARTITION BY d."docKey") AS versions
      FROM "PolicyDocument" d ORDER BY d."docKey", d."version" DESC),
    matching AS (
      SELECT * FROM latest l ${conditions.length ? Prisma.sql`WHERE ${Prisma.join(conditions, " AND ")}` : Prisma.empty}),
    shown AS (SELECT * FROM matching ORDER BY "docKey" LIMIT ${size} OFFSET ${(number - 1) * size}),
    effect AS (SELECT d."docKey", d."version" FROM countersign_policy_in_effect() e JOIN "PolicyDocument" d ON d."id" = e."id")
    SELECT s."docKey", s."id" AS "documentId", s."version", s."status", s."title", s."locale", s."owner", s."updatedAt",
           u."name" AS "authorName", effect."version" AS "inEffectVersion", s.versions, counted.total
    FROM (SELECT count(*) AS total FROM matching) counted
    LEFT JOIN shown s ON true
    LEFT JOIN "User" u ON u."id" = s."authorId"
    LEFT JOIN effect ON effect."docKey" = s."docKey"
    ORDER BY s."docKey"`,
  );
  const documents: TDocumentRow[] = rows
    .filter((r) => r.docKey !== null)
    .map((r) => ({
      docKey: r.docKey,
      documentId: r.documentId,
      version: Number(r.version),
      status: r.status,
      title: r.title,
      locale: r.locale,
      owner: r.owner,
      authorName: r.authorName,
      updatedAt: timestampFromText(r.updatedAt),
      inEffectVersion: r.inEffectVersion === null ? null : Number(r.inEffectVersion),
      versions: Number(r.versions),
    }));
  return { documents, total: Number(rows[0]?.total ?? 0), page: { number, size } };
}
