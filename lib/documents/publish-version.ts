// Publishes a version in review: from then (or from its scheduled time) its passages are evidence.
// The rules are kept here, whoever calls (a page, the command line, a test):
//   - only a version in review, and never one older than a version of its key already published;
//   - a second person: the publisher is neither the version's author nor whoever sent it to review
//     (sending is asking for the publish; the one who asks does not grant it);
//   - the publisher's role is at least the setting `documents.publishRole` (default lead);
//   - the evaluation of this exact content lets it through (publishGateProblem: finished, and every
//     regression acknowledged by name).
// A refusal rolls back whatever its transaction did and is then audited in a transaction of its own,
// so a refused publish is on the record as surely as a published one. The published event names the
// author and the publisher (ids and names), the key, the version, the content hash and when it takes
// effect. Published now, the key's earlier published versions are retired at once; scheduled for
// later, they stay in effect until then (countersign_policy_in_effect reads the same rule), and
// retireSupersededVersions (the routine job retire-superseded) tidies their state afterwards.
import { AppError, isAppError, isErrorCode } from "../contracts/app-error";
import { recordAuditEvent } from "../audit/record-audit-event";
import { db as defaultDb, type Db, type DbTx } from "../db";
import { assertDocumentId, assertDocumentsArea, documentEvent, lockVersionRow, type TDocumentActor } from "./document-rules";
import { publishGateProblem } from "./publish-gate";
import { checkPublishRules } from "./publish-refusal";
import { lockDocumentKeys, moveVersion, retireVersions } from "./store/document-store";

/** The furthest ahead a version may be scheduled. */
export const MAX_SCHEDULE_DAYS = 366;

export interface TPublished {
  documentId: string;
  docKey: string;
  version: number;
  contentHash: string;
  effectiveAt: Date | null;
  /** Versions of the key retired by this publish (none when it is scheduled for later). */
  retiredVersions: number[];
}

export interface TPublishInput {
  documentId: string;
  actor: TDocumentActor;
  /** When the version takes effect; absent or null, at once. Must be in the future. */
  effectiveAt?: Date | null;
  /** The publisher acknowledges, under their name, the regressions this content's evaluation found. */
  acknowledgeRegressions?: boolean;
  client?: Db;
}

/** What a refusal's event says, gathered as the checks go. */
interface TFacts {
  docKey: string;
  version: number;
  contentHash: string;
  authorId: string | null;
  authorName: string | null;
  submittedById: string | null;
  publisherId: string;
  publisherName: string | null;
}

function assertSchedule(effectiveAt: Date | null, now: Date): void {
  if (effectiveAt === null) return;
  if (Number.isNaN(effectiveAt.getTime()) || effectiveAt <= now)
    throw new AppError("invalid", "A scheduled time must be in the future; leave it empty to publish now.", "effectiveAt");
  if (effectiveAt.getTime() - now.getTime() > MAX_SCHEDULE_DAYS * 24 * 3600_000)
    throw new AppError("invalid", `A version may be scheduled at most ${MAX_SCHEDULE_DAYS} days ahead.`, "effectiveAt");
}

async function namesOf(tx: DbTx, ids: readonly (string | null)[]): Promise<Map<string, string>> {
  const wanted = ids.filter((id): id is string => id !== null);
  const users = await tx.user.findMany({ where: { id: { in: wanted } }, select: { id: true, name: true } });
  return new Map(users.map((u) => [u.id, u.name]));
}

async function publishIn(tx: DbTx, input: TPublishInput, facts: { current?: TFacts }): Promise<TPublished> {
  const { actor } = input;
  const effectiveAt = input.effectiveAt ?? null;
  const now = new Date();
  assertSchedule(effectiveAt, now);
  const found = await tx.policyDocument.findUnique({ where: { id: input.documentId }, select: { docKey: true } });
  if (!found) throw new AppError("not_found", "No such policy version.");
  await lockDocumentKeys(tx, [found.docKey]);
  const row = (await lockVersionRow(tx, input.documentId))!;
  const names = await namesOf(tx, [row.authorId, actor.id]);
  facts.current = {
    docKey: row.docKey,
    version: row.version,
    contentHash: row.contentHash,
    authorId: row.authorId,
    authorName: row.authorId ? (names.get(row.authorId) ?? null) : null,
    submittedById: row.submittedById,
    publisherId: actor.id,
    publisherName: names.get(actor.id) ?? null,
  };
  await checkPublishRules(tx, actor, row);
  const gate = await publishGateProblem({
    tx,
    documentId: row.id,
    contentHash: row.contentHash,
    userId: actor.id,
    acknowledgeRegressions: input.acknowledgeRegressions ?? false,
  });
  if (gate) throw new AppError(isErrorCode(gate.code) ? gate.code : "publish_blocked", gate.message);

  const earlier = effectiveAt
    ? []
    : await tx.policyDocument.findMany({
        where: { docKey: row.docKey, status: "published", id: { not: row.id } },
        select: { id: true, version: true },
      });
  const { docKey, version, contentHash, ...people } = facts.current;
  await recordAuditEvent(
    tx,
    documentEvent(actor, "document.published", docKey, {
      version,
      contentHash,
      effectiveAt: effectiveAt?.toISOString() ?? null,
      ...people,
      retiredVersions: earlier.map((e) => e.version).sort((a, b) => a - b),
    }),
  );
  await moveVersion(tx, {
    id: row.id,
    from: "in_review",
    to: "published",
    change: { publishedAt: now, publishedById: actor.id, effectiveAt },
  });
  const retiredVersions = await retireVersions(tx, { ids: earlier.map((e) => e.id), byId: actor.id, at: now });
  return { documentId: row.id, docKey, version, contentHash, effectiveAt, retiredVersions };
}

export async function publishVersion(input: TPublishInput): Promise<TPublished> {
  assertDocumentsArea(input.actor);
  assertDocumentId(input.documentId);
  const client = input.client ?? defaultDb();
  const facts: { current?: TFacts } = {};
  try {
    return await client.$transaction((tx) => publishIn(tx, input, facts));
  } catch (error) {
    const refused = facts.current;
    if (refused && isAppError(error)) {
      const { docKey, ...rest } = refused;
      await client.$transaction((tx) =>
        recordAuditEvent(
          tx,
          documentEvent(input.actor, "document.publish_refused", docKey, { ...rest, code: error.code, reason: error.message }),
        ),
      );
    }
    throw error;
  }
}
