// One version of a policy document with its passages and the people of its history, and the key's
// other versions: the page a citation opens, the editor, and the review and publish pages.
import { db as defaultDb, type Db } from "../db";

const PERSON = { select: { id: true, name: true } } as const;

export async function loadDocumentVersion(input: { docKey: string; version: number; client?: Db }) {
  const client = input.client ?? defaultDb();
  if (!Number.isSafeInteger(input.version) || input.version < 1) return null;
  const doc = await client.policyDocument.findUnique({
    where: { docKey_version: { docKey: input.docKey, version: input.version } },
    include: {
      chunks: { orderBy: { ordinal: "asc" }, select: { id: true, ordinal: true, heading: true, text: true, audience: true } },
      author: PERSON,
      submittedBy: PERSON,
      publishedBy: PERSON,
      retiredBy: PERSON,
    },
  });
  if (!doc) return null;
  const [versions, inEffect] = await Promise.all([
    client.policyDocument.findMany({
      where: { docKey: input.docKey },
      orderBy: { version: "desc" },
      select: { id: true, version: true, status: true, contentHash: true, effectiveAt: true, publishedAt: true, updatedAt: true },
    }),
    client.$queryRaw<{ version: number }[]>`
      SELECT d."version" FROM countersign_policy_in_effect() e JOIN "PolicyDocument" d ON d."id" = e."id" WHERE d."docKey" = ${input.docKey}`,
  ]);
  /** The version of this key in effect now (evidence), if any. */
  const inEffectVersion = inEffect[0]?.version ?? null;
  return { doc, versions, inEffectVersion, isInEffect: inEffectVersion === doc.version };
}

export type TDocumentVersion = NonNullable<Awaited<ReturnType<typeof loadDocumentVersion>>>;
