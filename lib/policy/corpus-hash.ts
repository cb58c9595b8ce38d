// The corpus hash: which policy text was evidence when something was decided. One definition, the
// database's (countersign_corpus_hash, migration 20261127120000_policy_evaluations): sha256 over the
// versions in effect, "docKey@version contentHash" a line, in byte order of their keys. It lives in
// the database because the statements that need it most – a run's first read, a decision's facts,
// the queue's stale count – take it in the same round trip; everything else asks the same function.
// A publish (or a scheduled version taking effect, or a retirement) changes it, and with it the
// digest a waiting approval would have now (approval-versions.ts): so a publish makes approvals stale.
import { Prisma, type Db, type DbTx } from "../db";

/** The corpus hash now, as an expression for a statement that needs it: evaluated once per statement. */
export const CORPUS_HASH_NOW_TEXT = "(SELECT countersign_corpus_hash())";
export const CORPUS_HASH_NOW = Prisma.raw(CORPUS_HASH_NOW_TEXT);

export interface TCorpusHashOptions {
  /** The corpus with this version counted as published in place of its key's others (an evaluation before publishing). */
  candidate?: string | null;
  /** The corpus in effect at another moment than now. */
  at?: Date;
}

/** The corpus hash now (or at `at`, or with `candidate` published). */
export async function corpusHash(client: Db | DbTx, options: TCorpusHashOptions = {}): Promise<string> {
  // Timestamps are stored in UTC without a zone (Prisma's DateTime); the function compares in UTC.
  const at = options.at ? Prisma.sql`${options.at.toISOString()}::timestamptz AT TIME ZONE 'UTC'` : Prisma.sql`now() AT TIME ZONE 'UTC'`;
  const [row] = await client.$queryRaw<{ hash: string }[]>(
    Prisma.sql`SELECT countersign_corpus_hash(${at}, ${options.candidate ?? null}::uuid) AS hash`,
  );
  return row!.hash;
}

/** A corpus hash as people read it: its first twelve characters. */
export function shortCorpusHash(hash: string): string {
  return hash ? hash.slice(0, 12) : "none";
}
