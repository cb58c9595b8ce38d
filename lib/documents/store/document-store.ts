// The policy documents store: the only code that writes PolicyDocument and PolicyChunk. It decides
// nothing – who may import, edit, publish or retire, and when, is decided by the functions of
// lib/documents that call it – and the database keeps what no caller may undo: a version past draft
// keeps its content and passages, and moves only forward through its states (the trigger
// countersign_policy_document_guard, migration 20261127110000_document_lifecycle).
import { randomUUID } from "node:crypto";
import type { DocumentStatus } from "../../../generated/prisma/enums";
import type { DbTx } from "../../db";
import type { TVersionContent } from "../../contracts/policy-evaluation";

export type { TVersionContent };
export type TPassageRow = TVersionContent["passages"][number];

export interface TNewVersion extends TVersionContent {
  docKey: string;
  version: number;
  authorId: string | null;
}

// Imports, publishes and retirements of one document key take its lock, so two imports cannot both
// create version N+1, and a publish sees the key's other versions as they stay until it commits.
const DOCUMENT_LOCK_NAMESPACE = 0x646f6373; // "docs"

/** Takes the keys' locks for the transaction, in one order, so two callers never wait on each other crosswise. */
export async function lockDocumentKeys(tx: DbTx, docKeys: readonly string[]): Promise<void> {
  const keys = [...new Set(docKeys)].sort();
  if (!keys.length) return;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${DOCUMENT_LOCK_NAMESPACE}::int, hashtext(k)) FROM unnest(${keys}::text[]) WITH ORDINALITY AS t(k, n) ORDER BY n`;
}

const chunkRows = (documentId: string, passages: readonly TPassageRow[]) =>
  passages.map((p, ordinal) => ({ documentId, ordinal, heading: p.heading, text: p.text, audience: p.audience }));

/** The content's columns, and nothing else a caller's object carries. */
const contentColumns = (c: TVersionContent) => ({
  title: c.title,
  section: c.section,
  body: c.body,
  source: c.source,
  locale: c.locale,
  owner: c.owner,
  contentHash: c.contentHash,
});

/** New draft versions with their passages: two statements, however many. Returns their ids in order. */
export async function insertDraftVersions(tx: DbTx, versions: readonly TNewVersion[]): Promise<string[]> {
  if (!versions.length) return [];
  const ids = versions.map(() => randomUUID());
  await tx.policyDocument.createMany({
    data: versions.map((v, i) => ({
      id: ids[i],
      docKey: v.docKey,
      version: v.version,
      authorId: v.authorId,
      status: "draft" as const,
      ...contentColumns(v),
    })),
  });
  await tx.policyChunk.createMany({ data: versions.flatMap((v, i) => chunkRows(ids[i]!, v.passages)) });
  return ids;
}

/** Drafts' content replaced in place, their passages derived again (the trigger refuses a non-draft). */
export async function replaceDraftContent(
  tx: DbTx,
  drafts: readonly { id: string; authorId: string | null; content: TVersionContent }[],
): Promise<void> {
  if (!drafts.length) return;
  const ids = drafts.map((d) => d.id);
  await tx.policyChunk.deleteMany({ where: { documentId: { in: ids } } });
  for (const d of drafts) {
    await tx.policyDocument.update({
      where: { id: d.id, status: "draft" },
      data: { ...contentColumns(d.content), authorId: d.authorId, updatedAt: new Date() },
    });
  }
  await tx.policyChunk.createMany({ data: drafts.flatMap((d) => chunkRows(d.id, d.content.passages)) });
}

/** The state columns a move sets; each move clears or sets its own. */
export interface TStateChange {
  submittedAt?: Date | null;
  submittedById?: string | null;
  publishedAt?: Date | null;
  publishedById?: string | null;
  effectiveAt?: Date | null;
  retiredAt?: Date | null;
  retiredById?: string | null;
}

/** A version moved from `from` to `to` as one compare-and-set; false when it was not in `from`. */
export async function moveVersion(
  tx: DbTx,
  m: { id: string; from: DocumentStatus; to: DocumentStatus; change: TStateChange },
): Promise<boolean> {
  const { count } = await tx.policyDocument.updateMany({
    where: { id: m.id, status: m.from },
    data: { status: m.to, ...m.change, updatedAt: new Date() },
  });
  return count === 1;
}

/** Published versions retired (by id), by a person at a time. Returns the versions retired. */
export async function retireVersions(tx: DbTx, r: { ids: readonly string[]; byId: string | null; at: Date }): Promise<number[]> {
  if (!r.ids.length) return [];
  const rows = await tx.$queryRaw<{ version: number }[]>`
    UPDATE "PolicyDocument" SET "status" = 'retired', "retiredAt" = ${r.at}, "retiredById" = ${r.byId}::uuid, "updatedAt" = ${r.at}
    WHERE "id" = ANY(${[...r.ids]}::uuid[]) AND "status" = 'published'
    RETURNING "version"`;
  return rows.map((row) => row.version).sort((a, b) => a - b);
}

/**
 * Published versions a newer version in effect has superseded, retired: by whoever published that
 * version, at the time it took effect. A version scheduled for later leaves the one before it
 * published until then (countersign_policy_in_effect reads the same rule); this tidies the states
 * afterwards, for the key given or for every key. Returns the (key, version) pairs retired.
 */
export async function retireSuperseded(tx: DbTx, docKey: string | null): Promise<{ docKey: string; version: number }[]> {
  return tx.$queryRaw<{ docKey: string; version: number }[]>`
    WITH current AS (
      SELECT d."docKey", d."version", d."publishedById", coalesce(d."effectiveAt", d."publishedAt", now() AT TIME ZONE 'UTC') AS since
      FROM countersign_policy_in_effect() e JOIN "PolicyDocument" d ON d."id" = e."id"
      WHERE ${docKey}::text IS NULL OR d."docKey" = ${docKey}::text)
    UPDATE "PolicyDocument" old SET "status" = 'retired', "retiredAt" = current.since, "retiredById" = current."publishedById",
      "updatedAt" = now() AT TIME ZONE 'UTC'
    FROM current
    WHERE old."docKey" = current."docKey" AND old."status" = 'published' AND old."version" < current."version"
    RETURNING old."docKey", old."version"`;
}

/** A version as the demo seed's files give it, its state taken as written there. */
export interface TSeedVersion extends TNewVersion {
  status: DocumentStatus;
}

const STATE_PATH: DocumentStatus[] = ["in_review", "published", "retired"];

/**
 * The demo seed's versions: written as drafts with their passages, then walked along the states to
 * the one each file names – the same moves the guard allows every writer, nothing written around it.
 * Five statements for the whole set.
 */
export async function insertSeedVersions(tx: DbTx, versions: readonly TSeedVersion[], at: Date): Promise<void> {
  const ids = await insertDraftVersions(tx, versions);
  const reached = (step: DocumentStatus) => ids.filter((_, i) => STATE_PATH.indexOf(versions[i]!.status) >= STATE_PATH.indexOf(step));
  const changes: Record<string, TStateChange> = {
    in_review: { submittedAt: at },
    published: { publishedAt: at },
    retired: { retiredAt: at },
  };
  for (const [i, step] of STATE_PATH.entries()) {
    const from = i === 0 ? "draft" : STATE_PATH[i - 1]!;
    const moving = reached(step);
    if (moving.length)
      await tx.policyDocument.updateMany({ where: { id: { in: moving }, status: from }, data: { status: step, ...changes[step] } });
  }
}
