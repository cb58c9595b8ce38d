// Every version of one document, newest first, with the people of each one's history (who wrote it,
// sent it to review, published it, retired it) and the version in effect now: the document's page.
import { db as defaultDb, type Db } from "../db";

const PERSON = { select: { id: true, name: true } } as const;

export async function loadDocumentHistory(input: { docKey: string; client?: Db }) {
  const client = input.client ?? defaultDb();
  const [versions, inEffect] = await Promise.all([
    client.policyDocument.findMany({
      where: { docKey: input.docKey },
      orderBy: { version: "desc" },
      select: {
        id: true,
        version: true,
        status: true,
        title: true,
        locale: true,
        owner: true,
        section: true,
        source: true,
        contentHash: true,
        createdAt: true,
        updatedAt: true,
        submittedAt: true,
        publishedAt: true,
        effectiveAt: true,
        retiredAt: true,
        author: PERSON,
        submittedBy: PERSON,
        publishedBy: PERSON,
        retiredBy: PERSON,
        _count: { select: { chunks: true } },
      },
    }),
    client.$queryRaw<{ version: number }[]>`
      SELECT d."version" FROM countersign_policy_in_effect() e JOIN "PolicyDocument" d ON d."id" = e."id" WHERE d."docKey" = ${input.docKey}`,
  ]);
  if (!versions.length) return null;
  return { docKey: input.docKey, latest: versions[0]!, versions, inEffectVersion: inEffect[0]?.version ?? null };
}

export type TDocumentHistory = NonNullable<Awaited<ReturnType<typeof loadDocumentHistory>>>;
export type THistoryVersion = TDocumentHistory["versions"][number];
