// Asks for a version's evaluation before it is published: a row queued for the version's exact
// content, its audit event and its job, in one transaction (lib/documents/evaluate-version.ts does
// the work). A draft or a version in review may be evaluated, by anyone who works on documents.
// While an evaluation of the same content is waiting or running, asking again gets that one: the
// version's row lock orders two people asking at once, and a partial unique index holds it anyway.
import { randomUUID } from "node:crypto";
import { AppError } from "../contracts/app-error";
import { recordAuditEvent } from "../audit/record-audit-event";
import { db as defaultDb, type Db } from "../db";
import { EVALUATE_DOCUMENT_JOB } from "../jobs/definitions/evaluate-document";
import { enqueue } from "../jobs/queue";
import { assertDocumentId, assertDocumentsArea, documentEvent, lockVersionRow, type TDocumentActor } from "./document-rules";
import { insertEvaluation } from "./store/evaluate-store";

export interface TEvaluationStarted {
  evaluationId: string;
  status: "queued" | "running";
  /** False when an evaluation of this content was already waiting or running: that one is answered. */
  created: boolean;
}

export async function startEvaluation(input: { documentId: string; actor: TDocumentActor; client?: Db }): Promise<TEvaluationStarted> {
  const { actor, documentId } = input;
  assertDocumentsArea(actor);
  assertDocumentId(documentId);
  return (input.client ?? defaultDb()).$transaction(async (tx) => {
    const row = await lockVersionRow(tx, documentId);
    if (!row) throw new AppError("not_found", "No such policy version.");
    if (row.status !== "draft" && row.status !== "in_review")
      throw new AppError(
        "document_state",
        `${row.docKey}@${row.version} is ${row.status}: only a draft or a version in review is evaluated before publishing.`,
      );
    const open = await tx.policyEvaluation.findFirst({
      where: { documentId, contentHash: row.contentHash, status: { in: ["queued", "running"] } },
      select: { id: true, status: true },
    });
    if (open) return { evaluationId: open.id, status: open.status as "queued" | "running", created: false };
    const id = randomUUID();
    await recordAuditEvent(
      tx,
      documentEvent(actor, "document.evaluation_started", row.docKey, {
        version: row.version,
        contentHash: row.contentHash,
        evaluationId: id,
      }),
    );
    await insertEvaluation(tx, { id, documentId, contentHash: row.contentHash, startedById: actor.id });
    // The job's id is the evaluation's: a second enqueue of it is a no-op.
    await enqueue(tx, EVALUATE_DOCUMENT_JOB, { evaluationId: id }, { id });
    return { evaluationId: id, status: "queued", created: true };
  });
}
