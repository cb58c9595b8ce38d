// A version's evaluation before publishing: asked for, taken by the real worker, graded in a process
// of its own on the labelled questions and the episodes of eval/, compared, stored and audited. On
// the demo's corpus, with new versions of support-sla: one that changes its hours and keeps every
// answer, one that drops the refund-timing passage and loses answers and an episode.
import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { draftVersion, policyMarkdown } from "../../testing/evaluations";
import { drainQueue } from "../../testing/queue";
import { refusalCode } from "../../testing/refusals";
import { user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { EPISODES_PATH, gradeCorpora, QUESTIONS_PATH } from "../../scripts/grade-corpora";
import { loadQuestionSet } from "../eval/grade-retrieval";
import { loadDataset } from "../eval/load-dataset";
import type { TEvaluationResults } from "../contracts/policy-evaluation";
import { corpusHash } from "../policy/corpus-hash";
import { evaluateDocumentVersion } from "./evaluate-version";
import { startEvaluation } from "./evaluate-start";
import { saveDraft } from "./save-draft";
import { submitForReview } from "./submit-for-review";

const testDb = useTestDb(seedDemo);

const sla = (paragraphs: string[]) =>
  policyMarkdown({ key: "support-sla", title: "Support service levels", section: "Response times", paragraphs });
const NEW_HOURS = sla([
  "Every ticket receives a first response within 12 hours. Tickets about damaged or missing items are answered within 4 hours.",
  "A refund approved by a reviewer reaches the original payment method within 3 business days.",
]);
const NO_REFUND_TIMING = sla([
  "Every ticket receives a first response within 12 hours. Tickets about damaged or missing items are answered within 4 hours.",
]);

/** The grading in this process: the same composition the job's process runs. */
const inProcess = (request: Parameters<typeof gradeCorpora>[0], onProgress: Parameters<typeof gradeCorpora>[1]) =>
  gradeCorpora(request, onProgress);

async function evaluation(id: string) {
  const row = await testDb().client.policyEvaluation.findUniqueOrThrow({ where: { id } });
  return { ...row, results: row.results as unknown as TEvaluationResults };
}

describe("an evaluation before publishing", () => {
  it("is a job: graded in a process of its own, a version that changes the hours keeps every answer and every episode", async () => {
    const db = testDb();
    const { client } = db;
    const author = await user(client, "SPECIALIST");
    const documentId = await draftVersion(client, author, NEW_HOURS);
    const started = await startEvaluation({ documentId, actor: author, client });
    expect(started).toMatchObject({ status: "queued", created: true });
    // Asked again while it waits: the same evaluation.
    expect(await startEvaluation({ documentId, actor: await user(client, "LEAD"), client })).toEqual({ ...started, created: false });

    await drainQueue(db, { timeoutMs: 240_000 });
    const e = await evaluation(started.evaluationId);
    expect(e).toMatchObject({ status: "done", regressions: 0, error: null, progress: null });
    expect(e.corpusHashBefore).toBe(await corpusHash(client));
    expect(e.corpusHashAfter).toBe(await corpusHash(client, { candidate: documentId }));
    expect(e.results.renamed).toEqual({ from: "support-sla@1", to: "support-sla@2" });
    const { questions, episodes } = e.results;
    expect([questions.lost, questions.gained, episodes.toFail, episodes.toPass]).toEqual([[], [], [], []]);
    // Every labelled question and every episode of eval/, on both corpora.
    expect(questions.total).toBe((await loadQuestionSet(QUESTIONS_PATH)).questions.length);
    expect(episodes.total).toBe((await loadDataset(EPISODES_PATH)).episodes.length);
    // As many answered after as before (retrieval need not answer every labelled question; this
    // version changes none of the answers), and every episode passes on both.
    expect(questions.passedAfter).toBe(questions.passedBefore);
    expect(questions.passedBefore).toBeGreaterThan(0);
    expect([episodes.passedBefore, episodes.passedAfter]).toEqual([episodes.total, episodes.total]);
    const [set, dataset] = [await loadQuestionSet(QUESTIONS_PATH), await loadDataset(EPISODES_PATH)];
    expect(e.results.gradedWith).toMatchObject({
      questionSetVersion: set.version,
      questionsHash: set.hash,
      datasetVersion: dataset.version,
      datasetHash: dataset.hash,
    });
    const events = await client.auditEvent.findMany({
      where: { subjectType: "document", subjectId: "support-sla" },
      orderBy: { seq: "asc" },
    });
    expect(events.map((ev) => ev.action)).toEqual(expect.arrayContaining(["document.evaluation_started", "document.evaluated"]));
    expect(events.find((ev) => ev.action === "document.evaluated")!.inputs).toMatchObject({
      evaluationId: started.evaluationId,
      regressions: 0,
    });
    // Finished: taken again (a retried job), it is left as it is.
    expect(await evaluateDocumentVersion({ evaluationId: started.evaluationId, grade: inProcess, client })).toBe("not_running");
  }, 300_000);

  it("finds what a version that drops the refund-timing passage loses: the timing answers and the episode that cites it", async () => {
    const { client } = testDb();
    const author = await user(client, "SPECIALIST");
    const documentId = await draftVersion(client, author, NO_REFUND_TIMING, "support-sla-short.md");
    await submitForReview({ documentId, actor: author, client });
    const { evaluationId } = await startEvaluation({ documentId, actor: author, client });
    const progress: number[] = [];
    const outcome = await evaluateDocumentVersion({
      evaluationId,
      grade: (request, onProgress) => inProcess(request, (p) => (progress.push(p.done), onProgress(p))),
      client,
    });
    expect(outcome).toBe("done");
    expect(progress.length).toBeGreaterThan(0);
    const { results, regressions } = await evaluation(evaluationId);
    const lost = results.questions.lost.map((q) => q.id);
    expect(lost).toEqual(expect.arrayContaining(["timing-how-long", "timing-how-many-days"]));
    expect(results.questions.lost.find((q) => q.id === "timing-how-long")).toMatchObject({
      expected: "support-sla@1",
      before: expect.arrayContaining(["support-sla@1"]),
    });
    expect(results.questions.lost.every((q) => !q.after.includes("support-sla@1"))).toBe(true);
    expect(results.episodes.toFail.map((f) => f.id)).toContain("refund-timing-question");
    expect(results.episodes.toFail.find((f) => f.id === "refund-timing-question")!.explanation).toBeTruthy();
    expect(regressions).toBe(results.questions.lost.length + results.episodes.toFail.length);
  }, 300_000);

  it("fails, in words, when the draft changed after it was asked for, and when the grading fails; both audited", async () => {
    const { client } = testDb();
    const author = await user(client, "ADMIN");
    const documentId = await draftVersion(client, author, NEW_HOURS.replace("12 hours", "11 hours"), "sla-edit.md");
    const first = await startEvaluation({ documentId, actor: author, client });
    const { contentHash } = await client.policyDocument.findUniqueOrThrow({ where: { id: documentId } });
    await saveDraft({
      documentId,
      source: NEW_HOURS.replace("12 hours", "9 hours"),
      expectedContentHash: contentHash,
      actor: author,
      client,
    });
    expect(await evaluateDocumentVersion({ evaluationId: first.evaluationId, grade: inProcess, client })).toBe("failed");
    expect(await evaluation(first.evaluationId)).toMatchObject({ status: "failed", error: expect.stringMatching(/changed after/) });

    const second = await startEvaluation({ documentId, actor: author, client });
    expect(second.created).toBe(true);
    const broken = async () => {
      throw new Error("the grading process stopped (exit code 1) before answering");
    };
    // With a retry left, the failure is the job's to retry; on its last attempt it is recorded.
    await expect(evaluateDocumentVersion({ evaluationId: second.evaluationId, grade: broken, client, lastAttempt: false })).rejects.toThrow(
      /stopped/,
    );
    expect((await evaluation(second.evaluationId)).status).toBe("running");
    expect(await evaluateDocumentVersion({ evaluationId: second.evaluationId, grade: broken, client, lastAttempt: true })).toBe("failed");
    expect(await evaluation(second.evaluationId)).toMatchObject({ status: "failed", error: expect.stringMatching(/stopped/) });
    expect(await client.auditEvent.count({ where: { action: "document.evaluation_failed", subjectId: "support-sla" } })).toBe(2);
  });

  it("is asked for only of a draft or a version in review, by someone who works on documents", async () => {
    const { client } = testDb();
    const published = await client.policyDocument.findFirstOrThrow({ where: { docKey: "return-policy-us", status: "published" } });
    expect(await refusalCode(startEvaluation({ documentId: published.id, actor: await user(client, "LEAD"), client }))).toBe(
      "document_state",
    );
    expect(await refusalCode(startEvaluation({ documentId: "not-an-id", actor: await user(client, "LEAD"), client }))).toBe("not_found");
    expect(await refusalCode(startEvaluation({ documentId: crypto.randomUUID(), actor: await user(client, "LEAD"), client }))).toBe(
      "not_found",
    );
  });
});
