// Policy versions in review whose evaluation found regressions, for the browser suite: one for the
// evaluation panel's spec (e2e/policy-evaluation.spec.ts: refused, acknowledged by name, published)
// and one whose acknowledgement form the access table captures. Each written as a person writes it
// (imported as a draft, sent to review); its evaluation is a fixture – what the job stores when a
// version loses an answer and an episode (the real job is run by the spec on another version).
import type { PrismaClient } from "../../generated/prisma/client";
import { agentManifest } from "../../lib/contracts/manifest";
import type { TEvaluationResults } from "../../lib/contracts/policy-evaluation";
import { importDocuments } from "../../lib/documents/import-documents";
import { submitForReview } from "../../lib/documents/submit-for-review";
import { corpusHash } from "../../lib/policy/corpus-hash";

export const E2E_EVALUATED_KEYS = ["e2e-evaluation-publish", "e2e-evaluation-access"] as const;

const markdown = (key: string) =>
  [
    "---",
    `key: ${key}`,
    "title: Refund timing (shortened)",
    "locale: en",
    "section: Response times",
    "source: Browser suite",
    "---",
    "",
    "Every ticket receives a first response within 12 hours.",
    "",
  ].join("\n");

/** What an evaluation that lost one answer, moved one citation and failed one episode stores. */
function regressingResults(): TEvaluationResults {
  const manifest = agentManifest();
  const change = { answerable: true, expected: "support-sla@1", abstainBefore: null };
  return {
    questions: {
      total: 44,
      passedBefore: 44,
      passedAfter: 43,
      gained: [],
      lost: [{ ...change, id: "timing-how-long", before: ["support-sla@1"], after: [], abstainAfter: "no_approved_evidence" }],
      moved: [
        {
          ...change,
          id: "response-hear-back",
          before: ["support-sla@1"],
          after: ["support-sla@1", "return-policy-us@2"],
          abstainAfter: null,
        },
      ],
    },
    episodes: {
      total: 59,
      passedBefore: 59,
      passedAfter: 58,
      toFail: [
        {
          id: "refund-timing-question",
          title: "How long a refund takes: a cited reply",
          explanation:
            'status: expected "needs_human", got "needs_human"; reason: expected "draft_ready_for_review", got "no_approved_evidence"',
        },
      ],
      toPass: [],
    },
    renamed: null,
    gradedWith: {
      questionSetVersion: "policy-questions-v1",
      questionsHash: manifest.evalQuestionsHash,
      datasetVersion: manifest.evalDatasetVersion,
      datasetHash: manifest.evalDatasetHash,
      graderVersion: manifest.graderVersion,
    },
  };
}

/** Writes the versions and their evaluations the database does not have yet; returns how many. */
export async function seedE2eEvaluations(client: PrismaClient): Promise<number> {
  const author = await client.user.findFirstOrThrow({ where: { role: "SPECIALIST" }, select: { id: true, role: true } });
  let created = 0;
  for (const key of E2E_EVALUATED_KEYS) {
    if (await client.policyDocument.findFirst({ where: { docKey: key }, select: { id: true } })) continue;
    const imported = await importDocuments({ files: [{ name: `${key}.md`, text: markdown(key) }], actor: author, client });
    const file = imported.files[0]!;
    if (!("documentId" in file)) throw new Error(`the fixture ${key} did not import: ${JSON.stringify(file)}`);
    await submitForReview({ documentId: file.documentId, actor: author, client });
    const { contentHash } = await client.policyDocument.findUniqueOrThrow({ where: { id: file.documentId } });
    const results = regressingResults();
    await client.policyEvaluation.create({
      data: {
        documentId: file.documentId,
        contentHash,
        status: "done",
        startedById: author.id,
        corpusHashBefore: await corpusHash(client),
        corpusHashAfter: await corpusHash(client, { candidate: file.documentId }),
        results: results as object,
        regressions: results.questions.lost.length + results.episodes.toFail.length,
        runningAt: new Date(),
        finishedAt: new Date(),
      },
    });
    created++;
  }
  return created;
}
