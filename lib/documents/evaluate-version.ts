// A version's evaluation before it is published, as the evaluate-document job does it: the labelled
// questions (eval/questions.jsonl) and the episodes (eval/episodes.jsonl) graded on the corpus in
// effect and on the corpus as it would be with this version published, and what changes between
// them stored with the evaluation (evaluate-compare.ts): answers gained and lost, citations moved,
// episodes that flip. Both corpora are read from the installation in one snapshot and graded by
// `grade` (in a process of its own: evaluate-grader.ts), each on a fresh database with the demo's
// world and exactly that corpus in effect; labels naming the version this one replaces are read as
// naming this one. Idempotent: a retried job takes the evaluation again from the start, and a
// finished one is left as it is. The content graded is the one the evaluation was asked for: a
// draft edited since fails it, in words, and the new content needs an evaluation of its own.
import type { TCorpusGrader, TGradingProgress, TGradingRequest } from "../contracts/policy-evaluation";
import { recordAuditEvent, type TAuditInput } from "../audit/record-audit-event";
import { db as defaultDb, Prisma, type Db } from "../db";
import { readCorpus } from "./evaluate-corpus";
import { compareGradings } from "./evaluate-compare";
import { claimEvaluation, finishEvaluation, recordEvaluationProgress, type TEvaluationEnd } from "./store/evaluate-store";

export type TEvaluationOutcome = "done" | "failed" | "not_running";

interface TVersion {
  docKey: string;
  version: number;
  contentHash: string;
}

/** How often, at most, the grading's progress is written. */
const PROGRESS_EVERY_MS = 1000;

/** The version and both corpora, in one snapshot; or why this evaluation cannot run. */
async function readRequest(
  client: Db,
  claimed: { documentId: string; contentHash: string },
): Promise<{ version: TVersion; request?: TGradingRequest; problem?: string }> {
  return client.$transaction(
    async (tx) => {
      const row = await tx.policyDocument.findUniqueOrThrow({
        where: { id: claimed.documentId },
        select: { docKey: true, version: true, status: true, contentHash: true },
      });
      const version = { docKey: row.docKey, version: row.version, contentHash: claimed.contentHash };
      if (row.contentHash !== claimed.contentHash)
        return { version, problem: "the draft changed after the evaluation was asked for: evaluate its new content" };
      if (row.status !== "draft" && row.status !== "in_review") return { version, problem: `the version is ${row.status} now` };
      const [before, after] = [await readCorpus(tx, null), await readCorpus(tx, claimed.documentId)];
      const replaced = before.versions.find((v) => v.docKey === row.docKey);
      const renamed = replaced ? { from: `${replaced.docKey}@${replaced.version}`, to: `${row.docKey}@${row.version}` } : null;
      return { version, request: { before, after, renamed } };
    },
    { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead },
  );
}

/** The grading's progress, written at most every PROGRESS_EVERY_MS, one write at a time, never failing the grading. */
function progressWriter(client: Db, evaluationId: string): (progress: TGradingProgress) => void {
  let last = 0;
  let writing = Promise.resolve();
  return (progress) => {
    const now = Date.now();
    if (now - last < PROGRESS_EVERY_MS) return;
    last = now;
    writing = writing.then(() => recordEvaluationProgress(client, evaluationId, progress)).catch(() => {});
  };
}

/** The evaluation's end and its audit event, in one transaction (the event only if it was still running). */
async function finish(client: Db, evaluationId: string, version: TVersion, end: TEvaluationEnd): Promise<TEvaluationOutcome> {
  const event: TAuditInput = {
    actorType: "system",
    actorId: "evaluate-document",
    action: end.status === "done" ? "document.evaluated" : "document.evaluation_failed",
    subjectType: "document",
    subjectId: version.docKey,
    inputs: {
      ...version,
      evaluationId,
      corpusHashBefore: end.corpusHashBefore ?? null,
      corpusHashAfter: end.corpusHashAfter ?? null,
      ...(end.status === "done"
        ? { regressions: end.regressions, questions: counts(end.results.questions), episodes: counts(end.results.episodes) }
        : { error: end.error }),
    },
  };
  return client
    .$transaction(async (tx) => {
      // The event goes first, as for every effect; a finish that finds the evaluation no longer
      // running (another attempt finished it) throws its transaction away, event and all.
      await recordAuditEvent(tx, event);
      if (!(await finishEvaluation(tx, evaluationId, end))) throw new NotRunning();
      return end.status;
    })
    .catch((error: unknown) => {
      if (error instanceof NotRunning) return "not_running" as const;
      throw error;
    });
}

class NotRunning extends Error {}

const counts = (part: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(part).map(([key, value]) => [key, Array.isArray(value) ? value.length : value]));

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function evaluateDocumentVersion(input: {
  evaluationId: string;
  grade: TCorpusGrader;
  /** No retry follows a failure of this attempt: a grading that fails is then recorded as failed. */
  lastAttempt?: boolean;
  client?: Db;
}): Promise<TEvaluationOutcome> {
  const client = input.client ?? defaultDb();
  const claimed = await claimEvaluation(client, input.evaluationId);
  if (!claimed) return "not_running";
  const { version, request, problem } = await readRequest(client, claimed);
  if (!request) return finish(client, input.evaluationId, version, { status: "failed", error: problem! });
  const hashes = { corpusHashBefore: request.before.hash, corpusHashAfter: request.after.hash };
  let graded;
  try {
    graded = await input.grade(request, progressWriter(client, input.evaluationId));
  } catch (error) {
    if (input.lastAttempt === false) throw error;
    return finish(client, input.evaluationId, version, { status: "failed", error: message(error), ...hashes });
  }
  const { results, regressions } = compareGradings(graded, request.renamed);
  return finish(client, input.evaluationId, version, { status: "done", results, regressions, ...hashes });
}
