// Why a person may not publish a version, or nothing: every rule publishVersion keeps, in its order,
// asked before the click, so the version's page disables Publish with the sentence the server would
// refuse it with, not a copy of the rules in words of its own. publishVersion asks the same checks
// inside its transaction, with the version locked; this asks them in a read-only transaction of its
// own (the gate without an acknowledgement given at the click, as the page's publish form sends none).
import { AppError, isAppError, type TErrorCode } from "../contracts/app-error";
import { db as defaultDb, type Db, type DbTx } from "../db";
import { loadPolicySettings } from "../policy/settings";
import { assertDocumentsArea, assertMayPublish, type TDocumentActor } from "./document-rules";
import { publishGateProblem } from "./publish-gate";

export interface TPublishRefusal {
  code: TErrorCode;
  message: string;
}

/** The version as the rules read it. */
export interface TPublishRow {
  docKey: string;
  version: number;
  status: string;
  authorId: string | null;
  submittedById: string | null;
}

/** Every rule but the evaluation's gate, in the order a person would want to hear them; throws the first refusal. */
export async function checkPublishRules(tx: DbTx, actor: TDocumentActor, row: TPublishRow): Promise<void> {
  const name = `${row.docKey}@${row.version}`;
  if (row.status !== "in_review")
    throw new AppError("document_state", `${name} is ${row.status.replace("_", " ")}: only a version in review can be published.`);
  if (actor.id === row.authorId)
    throw new AppError("author_cannot_publish", `You wrote ${name}, so you cannot publish it: a second person must.`);
  if (actor.id === row.submittedById)
    throw new AppError("author_cannot_publish", `You sent ${name} to review, so you cannot publish it: a second person must.`);
  assertMayPublish(actor, await loadPolicySettings(tx), "Publishing a policy document");
  const newer = await tx.policyDocument.findFirst({
    where: { docKey: row.docKey, status: { in: ["published", "retired"] }, version: { gt: row.version } },
    select: { version: true },
  });
  if (newer) throw new AppError("document_state", `${row.docKey}@${newer.version}, a later version, has been published already.`);
}

async function refusalIn(tx: DbTx, documentId: string, actor: TDocumentActor): Promise<TPublishRefusal | null> {
  const row = await tx.policyDocument.findUnique({
    where: { id: documentId },
    select: { id: true, docKey: true, version: true, status: true, authorId: true, submittedById: true, contentHash: true },
  });
  if (!row) return { code: "not_found", message: "No such policy version." };
  await checkPublishRules(tx, actor, row);
  return publishGateProblem({ tx, documentId: row.id, contentHash: row.contentHash, userId: actor.id });
}

/** Null when `actor` may publish the version now (at once or scheduled), else the code and sentence publishVersion would refuse with. */
export async function findPublishRefusal(input: {
  documentId: string;
  actor: TDocumentActor;
  client?: Db;
}): Promise<TPublishRefusal | null> {
  try {
    assertDocumentsArea(input.actor);
    return await (input.client ?? defaultDb()).$transaction((tx) => refusalIn(tx, input.documentId, input.actor));
  } catch (error) {
    if (isAppError(error)) return { code: error.code, message: error.message };
    throw error;
  }
}
