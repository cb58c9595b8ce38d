import { evaluateDocumentVersion } from "../../documents/evaluate-version";
import { processGrader } from "../../documents/evaluate-grader";
import type { EVALUATE_DOCUMENT_JOB } from "../definitions/evaluate-document";
import type { TJobInput } from "./job-input";

/** A version's evaluation: graded in a process of its own, compared, stored with its audit event. */
export async function evaluateDocumentJob({ data, client, lastAttempt }: TJobInput<typeof EVALUATE_DOCUMENT_JOB>): Promise<unknown> {
  return evaluateDocumentVersion({ client, evaluationId: data.evaluationId, grade: processGrader(), lastAttempt });
}
