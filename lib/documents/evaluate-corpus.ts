// The corpus an evaluation grades, both ways: read from the installation as it is in effect (and as
// it would be with a version published), and written into a grading database so that exactly those
// versions are in effect there. A grading database is seeded with the demo's world first, whose own
// documents would otherwise answer the questions: the corpus is written before the seed (which leaves
// a version it finds alone) and whatever else the seed published is retired after it, through the
// same moves every writer makes. The corpus hash of the grading database must then be the
// installation's, or the grading would be of another corpus: checked, never assumed.
import type { TCorpusSnapshot, TCorpusVersion } from "../contracts/policy-evaluation";
import { Prisma, type Db, type DbTx } from "../db";
import { corpusHash } from "../policy/corpus-hash";
import { insertSeedVersions, retireVersions } from "./store/document-store";

/** The corpus in effect now, or with `candidate` published in place of its key's versions: one statement, one snapshot. */
export async function readCorpus(client: Db | DbTx, candidate: string | null): Promise<TCorpusSnapshot> {
  const [row] = await client.$queryRaw<{ hash: string; versions: TCorpusVersion[] }[]>(Prisma.sql`
    SELECT countersign_corpus_hash(now() AT TIME ZONE 'UTC', ${candidate}::uuid) AS "hash",
           coalesce(json_agg(json_build_object(
             'docKey', d."docKey", 'version', d."version", 'title', d."title", 'section', d."section", 'body', d."body",
             'source', d."source", 'locale', d."locale", 'owner', d."owner", 'contentHash', d."contentHash",
             'passages', (SELECT coalesce(json_agg(json_build_object('heading', c."heading", 'text', c."text", 'audience', c."audience") ORDER BY c."ordinal"), '[]'::json)
                          FROM "PolicyChunk" c WHERE c."documentId" = d."id")
           ) ORDER BY d."docKey" COLLATE "C"), '[]'::json) AS "versions"
    FROM countersign_policy_in_effect(now() AT TIME ZONE 'UTC', ${candidate}::uuid) e
    JOIN "PolicyDocument" d ON d."id" = e."id"`);
  return row!;
}

const versionKey = (v: { docKey: string; version: number; contentHash: string }) => `${v.docKey}@${v.version} ${v.contentHash}`;

/** Writes the corpus's versions, published, into a fresh grading database: before its world is seeded. */
export async function writeGradingCorpus(client: Db, corpus: TCorpusSnapshot): Promise<void> {
  // Published a moment ago, so that each is in effect now whatever the seed writes later.
  const at = new Date(Date.now() - 1000);
  await client.$transaction((tx) =>
    insertSeedVersions(
      tx,
      corpus.versions.map((v) => ({ ...v, authorId: null, status: "published" as const })),
      at,
    ),
  );
}

/**
 * After the world's seed: every published version that is not the corpus's retired, then the grading
 * database's corpus hash compared with the corpus's. Throws, naming both, when they differ (the seed
 * holds another text under a key and version of the corpus).
 */
export async function keepOnlyGradingCorpus(client: Db, corpus: TCorpusSnapshot): Promise<void> {
  const wanted = new Set(corpus.versions.map(versionKey));
  await client.$transaction(async (tx) => {
    const published = await tx.policyDocument.findMany({
      where: { status: "published" },
      select: { id: true, docKey: true, version: true, contentHash: true },
    });
    const others = published.filter((v) => !wanted.has(versionKey(v))).map((v) => v.id);
    await retireVersions(tx, { ids: others, byId: null, at: new Date() });
  });
  const hash = await corpusHash(client);
  if (hash !== corpus.hash)
    throw new Error(
      `the grading database's corpus (${hash.slice(0, 12)}) is not the one to grade (${corpus.hash.slice(0, 12)}): its world holds another text under a key and version of the installation's`,
    );
}
