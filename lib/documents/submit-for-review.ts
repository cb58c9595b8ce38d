// Sends a draft to review: from now on its content is fixed (the database refuses a change), so what
// a second person publishes is exactly what they reviewed. Anyone who works on documents may send a
// draft; whoever sends it may not publish it (publish-version.ts), no more than its author.
import { AppError } from "../contracts/app-error";
import { recordAuditEvent } from "../audit/record-audit-event";
import { db as defaultDb, type Db } from "../db";
import { assertDocumentId, assertDocumentsArea, documentEvent, lockVersionRow, type TDocumentActor } from "./document-rules";
import { moveVersion } from "./store/document-store";

export async function submitForReview(input: { documentId: string; actor: TDocumentActor; client?: Db }) {
  const { actor } = input;
  assertDocumentsArea(actor);
  assertDocumentId(input.documentId);
  return (input.client ?? defaultDb()).$transaction(async (tx) => {
    const row = await lockVersionRow(tx, input.documentId);
    if (!row) throw new AppError("not_found", "No such policy version.");
    if (row.status !== "draft")
      throw new AppError(
        "document_state",
        `${row.docKey}@${row.version} is ${row.status.replace("_", " ")}: only a draft is sent to review.`,
      );
    await recordAuditEvent(
      tx,
      documentEvent(actor, "document.submitted", row.docKey, { version: row.version, contentHash: row.contentHash }),
    );
    await moveVersion(tx, { id: row.id, from: "draft", to: "in_review", change: { submittedAt: new Date(), submittedById: actor.id } });
    return { documentId: row.id, docKey: row.docKey, version: row.version, status: "in_review" as const };
  });
}
