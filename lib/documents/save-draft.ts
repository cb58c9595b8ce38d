// Saves a draft edited in the browser: its Markdown replaced, its passages derived again from it.
// Only a draft changes (a version in review is withdrawn first; a published or retired one never
// changes: the database refuses it too), only its author may change it, and only from the content
// the editor loaded: a save over someone else's save is refused as stale, never merged.
import { AppError } from "../contracts/app-error";
import { recordAuditEvent } from "../audit/record-audit-event";
import { db as defaultDb, type Db } from "../db";
import { assertDocumentId, assertDocumentsArea, documentEvent, lockVersionRow, type TDocumentActor } from "./document-rules";
import { parsePolicyMarkdown, type TParsedDocument } from "./parse-markdown";
import { replaceDraftContent } from "./store/document-store";
import { versionContent } from "./version-content";

export interface TSavedDraft {
  documentId: string;
  docKey: string;
  version: number;
  contentHash: string;
  /** False when the source was already the draft's: nothing written, nothing audited. */
  changed: boolean;
}

/** The Markdown, read as an import reads it; every problem with its line, in one refusal. */
function parsed(source: string): TParsedDocument {
  const result = parsePolicyMarkdown(source);
  if (result.ok) return result.document;
  const lines = result.problems.map((p) => (p.line ? `Line ${p.line}: ${p.message}` : p.message));
  throw new AppError("invalid", `Nothing was saved. ${lines.join(" ")}`, "source");
}

export async function saveDraft(input: {
  documentId: string;
  source: string;
  /** The content hash of the draft as the editor loaded it. */
  expectedContentHash: string;
  actor: TDocumentActor;
  client?: Db;
}): Promise<TSavedDraft> {
  const { actor } = input;
  assertDocumentsArea(actor);
  assertDocumentId(input.documentId);
  const document = parsed(input.source);
  return (input.client ?? defaultDb()).$transaction(async (tx) => {
    const row = await lockVersionRow(tx, input.documentId);
    if (!row) throw new AppError("not_found", "No such policy version.");
    const name = `${row.docKey}@${row.version}`;
    if (row.status !== "draft")
      throw new AppError("document_state", `${name} is ${row.status.replace("_", " ")}: only a draft can be edited.`);
    // A draft imported by the demo seed has no author: whoever edits it first becomes its author.
    if (row.authorId !== null && row.authorId !== actor.id)
      throw new AppError(
        "not_the_author",
        `${name} is someone else's draft: only its author may edit it. Import a version of your own instead.`,
      );
    if (row.contentHash !== input.expectedContentHash)
      throw new AppError("stale", `${name} changed after you opened it, so nothing was saved. Reload it, then make your change again.`);
    if (document.docKey !== row.docKey)
      throw new AppError("invalid", `The key must stay ${row.docKey}: a new key is a new document (import it).`, "source");
    const result = { documentId: row.id, docKey: row.docKey, version: row.version, contentHash: document.contentHash };
    if (document.contentHash === row.contentHash) return { ...result, changed: false };
    await recordAuditEvent(
      tx,
      documentEvent(actor, "document.draft_saved", row.docKey, {
        version: row.version,
        contentHash: document.contentHash,
        previousContentHash: row.contentHash,
      }),
    );
    await replaceDraftContent(tx, [{ id: row.id, authorId: actor.id, content: versionContent(document) }]);
    return { ...result, changed: true };
  });
}
