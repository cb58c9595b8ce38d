// Helpers for tests that publish policy versions: a version written as a person would (imported as a
// draft, sent to review), and an evaluation of it recorded as finished – for tests about something
// other than the evaluation itself, which need the publish gate to let a version through. The real
// evaluation (the job, the grading) is tested in lib/documents/evaluate-version.integration.test.ts.
import type { PrismaClient } from "../generated/prisma/client";
import type { TEvaluationResults } from "../lib/contracts/policy-evaluation";
import { importDocuments } from "../lib/documents/import-documents";
import { publishVersion } from "../lib/documents/publish-version";
import { submitForReview } from "../lib/documents/submit-for-review";

type TActor = { id: string; role: "REVIEWER" | "SPECIALIST" | "LEAD" | "ADMIN" };

/** A policy version as Markdown: front matter, then one paragraph per passage. */
export function policyMarkdown(d: { key: string; title: string; section: string; paragraphs: string[]; locale?: string }): string {
  return [
    "---",
    `key: ${d.key}`,
    `title: ${d.title}`,
    `locale: ${d.locale ?? "en"}`,
    `section: ${d.section}`,
    "source: Test handbook",
    "---",
    "",
    d.paragraphs.join("\n\n"),
    "",
  ].join("\n");
}

/** Imports `markdown` as `author`'s draft and returns its version's id. */
export async function draftVersion(client: PrismaClient, author: TActor, markdown: string, name = "policy.md"): Promise<string> {
  const result = await importDocuments({ files: [{ name, text: markdown }], actor: author, client });
  const file = result.files[0]!;
  if (!result.ok || !("documentId" in file)) throw new Error(`the import failed: ${JSON.stringify(result.files)}`);
  return file.documentId;
}

/** Results with nothing changed: what an evaluation of a version that changes no answer stores. */
export function cleanResults(): TEvaluationResults {
  const graded = { questionSetVersion: "q", questionsHash: "q", datasetVersion: "e", datasetHash: "e", graderVersion: "g" };
  return {
    questions: { total: 0, passedBefore: 0, passedAfter: 0, gained: [], lost: [], moved: [] },
    episodes: { total: 0, passedBefore: 0, passedAfter: 0, toFail: [], toPass: [] },
    renamed: null,
    gradedWith: graded,
  };
}

/** What an evaluation that lost one answer and flipped one episode stores: two regressions. */
export function regressingResults(): TEvaluationResults {
  const results = cleanResults();
  results.questions.lost.push({
    id: "timing-how-long",
    answerable: true,
    expected: "support-sla@1",
    before: ["support-sla@1"],
    after: [],
    abstainBefore: null,
    abstainAfter: "no_approved_evidence",
  });
  results.episodes.toFail.push({ id: "refund-timing-question", title: "How long a refund takes", explanation: "path differs" });
  return results;
}

/** A finished evaluation of the version's current content, recorded as its job would (with `results`). */
export async function finishedEvaluation(
  client: PrismaClient,
  documentId: string,
  startedById: string,
  results: TEvaluationResults = cleanResults(),
): Promise<string> {
  const { contentHash } = await client.policyDocument.findUniqueOrThrow({ where: { id: documentId } });
  const regressions = results.questions.lost.length + results.episodes.toFail.length;
  const row = await client.policyEvaluation.create({
    data: {
      documentId,
      contentHash,
      status: "done",
      startedById,
      corpusHashBefore: "before",
      corpusHashAfter: "after",
      results: results as object,
      regressions,
      runningAt: new Date(),
      finishedAt: new Date(),
    },
  });
  return row.id;
}

/** `markdown` imported by `author`, sent to review, evaluated clean, and published by `publisher`. */
export async function publishedVersion(
  client: PrismaClient,
  people: { author: TActor; publisher: TActor },
  markdown: string,
): Promise<string> {
  const documentId = await draftVersion(client, people.author, markdown);
  await submitForReview({ documentId, actor: people.author, client });
  await finishedEvaluation(client, documentId, people.author.id);
  await publishVersion({ documentId, actor: people.publisher, client });
  return documentId;
}
