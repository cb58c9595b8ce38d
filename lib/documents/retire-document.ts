// Retires a document: every published version of its key – the one in effect and any scheduled for
// later – is retired, and a retired version is never evidence again (nothing moves it back: the
// database refuses it). Drafts and versions in review are left as they are: publishing one later
// brings the document back, through the same second-person rule as any publish. Retiring removes
// evidence customers and reviewers rely on, so it needs the same role as publishing.
import { AppError } from "../contracts/app-error";
import { recordAuditEvent } from "../audit/record-audit-event";
import { db as defaultDb, type Db } from "../db";
import { loadPolicySettings } from "../policy/settings";
import { assertDocumentId, assertDocumentsArea, assertMayPublish, documentEvent, type TDocumentActor } from "./document-rules";
import { lockDocumentKeys, retireVersions } from "./store/document-store";

export type TRetireTarget = { docKey: string } | { documentId: string };

export async function retireDocument(input: TRetireTarget & { actor: TDocumentActor; client?: Db }) {
  const { actor } = input;
  assertDocumentsArea(actor);
  if ("documentId" in input) assertDocumentId(input.documentId);
  return (input.client ?? defaultDb()).$transaction(async (tx) => {
    assertMayPublish(actor, await loadPolicySettings(tx), "Retiring a policy document");
    const docKey =
      "docKey" in input
        ? input.docKey
        : (await tx.policyDocument.findUnique({ where: { id: input.documentId }, select: { docKey: true } }))?.docKey;
    if (!docKey) throw new AppError("not_found", "No such policy document.");
    await lockDocumentKeys(tx, [docKey]);
    const published = await tx.policyDocument.findMany({ where: { docKey, status: "published" }, select: { id: true, version: true } });
    if (!published.length) {
      const any = await tx.policyDocument.count({ where: { docKey } });
      if (!any) throw new AppError("not_found", `There is no policy document ${docKey}.`);
      throw new AppError("document_state", `${docKey} has no published version: there is nothing to retire.`);
    }
    const versions = published.map((p) => p.version).sort((a, b) => a - b);
    await recordAuditEvent(tx, documentEvent(actor, "document.retired", docKey, { versions }));
    const retired = await retireVersions(tx, { ids: published.map((p) => p.id), byId: actor.id, at: new Date() });
    return { docKey, retiredVersions: retired };
  });
}
