// Takes a version back from review to draft, to be edited again (and sent again: a new review). Its
// author, whoever sent it, or a person who may publish may do it; it changes no evidence.
import { AppError } from "../contracts/app-error";
import { recordAuditEvent } from "../audit/record-audit-event";
import { db as defaultDb, type Db } from "../db";
import { loadPolicySettings } from "../policy/settings";
import {
  assertDocumentId,
  assertDocumentsArea,
  assertMayPublish,
  documentEvent,
  lockVersionRow,
  type TDocumentActor,
} from "./document-rules";
import { moveVersion } from "./store/document-store";

export async function withdrawFromReview(input: { documentId: string; actor: TDocumentActor; client?: Db }) {
  const { actor } = input;
  assertDocumentsArea(actor);
  assertDocumentId(input.documentId);
  return (input.client ?? defaultDb()).$transaction(async (tx) => {
    const row = await lockVersionRow(tx, input.documentId);
    if (!row) throw new AppError("not_found", "No such policy version.");
    if (row.status !== "in_review")
      throw new AppError(
        "document_state",
        `${row.docKey}@${row.version} is ${row.status.replace("_", " ")}: only a version in review is withdrawn.`,
      );
    if (actor.id !== row.authorId && actor.id !== row.submittedById)
      assertMayPublish(actor, await loadPolicySettings(tx), "Withdrawing someone else's version from review");
    await recordAuditEvent(
      tx,
      documentEvent(actor, "document.withdrawn", row.docKey, { version: row.version, contentHash: row.contentHash }),
    );
    await moveVersion(tx, { id: row.id, from: "in_review", to: "draft", change: { submittedAt: null, submittedById: null } });
    return { documentId: row.id, docKey: row.docKey, version: row.version, status: "draft" as const };
  });
}
