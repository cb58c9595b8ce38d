// A person acknowledges, under their name, the regressions an evaluation found – answers lost,
// episodes that fail after publishing – so that the version may be published over them
// (publish-gate.ts). Acknowledging is accepting them for publication, so it takes the role that may
// publish (the setting documents.publishRole); the author may hold it too, and the second person who
// publishes sees who acknowledged what. Only the latest finished evaluation of the version's current
// content counts, and it is acknowledged once: what the gate reads is what was acknowledged.
import { AppError } from "../contracts/app-error";
import { recordAuditEvent } from "../audit/record-audit-event";
import { db as defaultDb, type Db, type DbTx } from "../db";
import { loadPolicySettings } from "../policy/settings";
import { assertDocumentsArea, assertMayPublish, documentEvent, type TDocumentActor } from "./document-rules";
import { acknowledgeEvaluation } from "./store/evaluate-store";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface TAcknowledged {
  evaluationId: string;
  acknowledgedById: string;
  acknowledgedAt: Date;
}

/** The acknowledgement and its event, in the caller's transaction (a person's, or a publish's). */
export async function recordAcknowledgement(
  tx: DbTx,
  a: {
    evaluation: { id: string; regressions: number | null };
    version: { docKey: string; version: number; contentHash: string };
    actor: TDocumentActor;
    note: string | null;
    /** Where it was given: on its own, or by the publisher as part of the publish. */
    via: "acknowledge" | "publish";
  },
): Promise<TAcknowledged> {
  const at = new Date();
  await recordAuditEvent(
    tx,
    documentEvent(a.actor, "document.regression_acknowledged", a.version.docKey, {
      version: a.version.version,
      contentHash: a.version.contentHash,
      evaluationId: a.evaluation.id,
      regressions: a.evaluation.regressions,
      note: a.note,
      via: a.via,
    }),
  );
  if (!(await acknowledgeEvaluation(tx, { id: a.evaluation.id, byId: a.actor.id, note: a.note, at })))
    throw new AppError("evaluation_state", "These regressions were acknowledged a moment ago by someone else: reload to see by whom.");
  return { evaluationId: a.evaluation.id, acknowledgedById: a.actor.id, acknowledgedAt: at };
}

/** The evaluation, locked, with its version: refused unless it may be acknowledged now. */
async function lockAcknowledgeable(tx: DbTx, evaluationId: string) {
  const [locked] = await tx.$queryRaw<
    { id: string }[]
  >`SELECT "id"::text FROM "PolicyEvaluation" WHERE "id" = ${evaluationId}::uuid FOR UPDATE`;
  if (!locked) throw new AppError("not_found", "No such evaluation.");
  const evaluation = await tx.policyEvaluation.findUniqueOrThrow({
    where: { id: evaluationId },
    include: { document: { select: { docKey: true, version: true, contentHash: true } }, acknowledgedBy: { select: { name: true } } },
  });
  const { document } = evaluation;
  const name = `${document.docKey}@${document.version}`;
  if (evaluation.status !== "done")
    throw new AppError("evaluation_state", `The evaluation of ${name} has not finished: there is nothing to acknowledge yet.`);
  if (!evaluation.regressions)
    throw new AppError("evaluation_state", `The evaluation of ${name} found no regression: there is nothing to acknowledge.`);
  if (evaluation.acknowledgedBy)
    throw new AppError("evaluation_state", `${evaluation.acknowledgedBy.name} acknowledged these regressions already.`);
  if (document.contentHash !== evaluation.contentHash)
    throw new AppError(
      "evaluation_state",
      `${name} changed after this evaluation: evaluate its new content, and acknowledge what that finds.`,
    );
  const newer = await tx.policyEvaluation.count({
    where: {
      documentId: evaluation.documentId,
      contentHash: evaluation.contentHash,
      status: "done",
      finishedAt: { gt: evaluation.finishedAt! },
    },
  });
  if (newer) throw new AppError("evaluation_state", `A newer evaluation of ${name} has finished: acknowledge what that one found.`);
  return { evaluation, version: document };
}

export async function acknowledgeRegression(input: {
  evaluationId: string;
  actor: TDocumentActor;
  note?: string | null;
  client?: Db;
}): Promise<TAcknowledged> {
  const { actor } = input;
  assertDocumentsArea(actor);
  if (!UUID.test(input.evaluationId)) throw new AppError("not_found", "No such evaluation.");
  const note = input.note?.trim() || null;
  return (input.client ?? defaultDb()).$transaction(async (tx) => {
    const { evaluation, version } = await lockAcknowledgeable(tx, input.evaluationId);
    assertMayPublish(actor, await loadPolicySettings(tx), "Acknowledging the regressions of an evaluation");
    return recordAcknowledgement(tx, { evaluation, version, actor, note, via: "acknowledge" });
  });
}
