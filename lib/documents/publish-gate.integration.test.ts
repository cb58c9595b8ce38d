// The publish gate, through the real publish (publishVersion asks it inside its transaction): no
// finished evaluation of the exact content, refused; a regression nobody acknowledged, refused; after
// an acknowledgement by name – beforehand by someone who may publish, or by the publisher as they
// publish – published. Every refusal and every acknowledgement is audited.
import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { draftVersion, finishedEvaluation, policyMarkdown, regressingResults } from "../../testing/evaluations";
import { refusalCode } from "../../testing/refusals";
import { newUser, user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { acknowledgeRegression } from "./evaluate-acknowledge";
import { loadVersionEvaluation } from "./evaluate-load";
import { startEvaluation } from "./evaluate-start";
import { publishVersion } from "./publish-version";
import { saveDraft } from "./save-draft";
import { submitForReview } from "./submit-for-review";
import { withdrawFromReview } from "./withdraw-from-review";

const testDb = useTestDb(seedDemo);

let n = 0;
/** A new document in review, written by a specialist: its id, author and a lead who may publish it. */
async function inReview(paragraph = "Gift cards never expire and can be used on any order.") {
  const { client } = testDb();
  const author = await newUser(client, "SPECIALIST");
  const publisher = await newUser(client, "LEAD");
  const key = `gift-cards-${++n}`;
  const markdown = policyMarkdown({ key, title: "Gift cards", section: "Using a gift card", paragraphs: [paragraph] });
  const documentId = await draftVersion(client, author, markdown, `${key}.md`);
  await submitForReview({ documentId, actor: author, client });
  return { documentId, author, publisher, key, markdown };
}

const refusals = (docKey: string) =>
  testDb().client.auditEvent.findMany({ where: { action: "document.publish_refused", subjectId: docKey }, orderBy: { seq: "asc" } });

describe("the publish gate", () => {
  it("refuses a version without a finished evaluation of its content, audited; one still running is not enough", async () => {
    const { client } = testDb();
    const { documentId, author, publisher, key } = await inReview();
    expect(await refusalCode(publishVersion({ documentId, actor: publisher, client }))).toBe("evaluation_required");
    await startEvaluation({ documentId, actor: author, client });
    await expect(publishVersion({ documentId, actor: publisher, client })).rejects.toMatchObject({
      code: "evaluation_required",
      message: expect.stringMatching(/has not finished/),
    });
    expect((await refusals(key)).map((e) => (e.inputs as { code: string }).code)).toEqual(["evaluation_required", "evaluation_required"]);
    expect((await client.policyDocument.findUniqueOrThrow({ where: { id: documentId } })).status).toBe("in_review");
  });

  it("publishes a version whose evaluation found no regression", async () => {
    const { client } = testDb();
    const { documentId, author, publisher } = await inReview();
    await finishedEvaluation(client, documentId, author.id);
    expect(await publishVersion({ documentId, actor: publisher, client })).toMatchObject({ documentId });
  });

  it("refuses a regression nobody acknowledged; publishes once someone who may publish acknowledged it by name", async () => {
    const { client } = testDb();
    const { documentId, author, publisher, key } = await inReview();
    const evaluationId = await finishedEvaluation(client, documentId, author.id, regressingResults());
    await expect(publishVersion({ documentId, actor: publisher, client })).rejects.toMatchObject({
      code: "regression_unacknowledged",
      message: expect.stringMatching(/2 regressions \(1 answer lost, 1 episode failing after publishing\)/),
    });
    expect((await refusals(key)).at(-1)!.inputs).toMatchObject({ code: "regression_unacknowledged" });

    // The author, a reviewer, may not accept regressions for publication: the publish role may.
    expect(await refusalCode(acknowledgeRegression({ evaluationId, actor: author, client }))).toBe("role_insufficient");
    const acknowledged = await acknowledgeRegression({ evaluationId, actor: publisher, note: "  Timing moved to the FAQ.  ", client });
    expect(acknowledged).toMatchObject({ evaluationId, acknowledgedById: publisher.id });
    expect(await client.policyEvaluation.findUniqueOrThrow({ where: { id: evaluationId } })).toMatchObject({
      acknowledgedById: publisher.id,
      acknowledgementNote: "Timing moved to the FAQ.",
    });
    const event = await client.auditEvent.findFirstOrThrow({ where: { action: "document.regression_acknowledged", subjectId: key } });
    expect(event).toMatchObject({
      actorId: publisher.id,
      inputs: expect.objectContaining({ evaluationId, regressions: 2, via: "acknowledge" }),
    });
    // Once: a second acknowledgement says who gave the first.
    await expect(acknowledgeRegression({ evaluationId, actor: await user(client, "ADMIN"), client })).rejects.toMatchObject({
      code: "evaluation_state",
      message: expect.stringMatching(/Person \d+ acknowledged/),
    });

    expect(await publishVersion({ documentId, actor: publisher, client })).toMatchObject({ documentId });
  });

  it("lets the publisher acknowledge the regressions as they publish, under their own name, in the publish's transaction", async () => {
    const { client } = testDb();
    const { documentId, author, publisher, key } = await inReview();
    const evaluationId = await finishedEvaluation(client, documentId, author.id, regressingResults());
    await publishVersion({ documentId, actor: publisher, acknowledgeRegressions: true, client });
    expect(await client.policyEvaluation.findUniqueOrThrow({ where: { id: evaluationId } })).toMatchObject({
      acknowledgedById: publisher.id,
    });
    const actions = (await client.auditEvent.findMany({ where: { subjectId: key }, orderBy: { seq: "asc" } })).map((e) => e.action);
    expect(actions.slice(-2)).toEqual(["document.regression_acknowledged", "document.published"]);
  });

  it("reads the latest finished evaluation of the content: a newer one with regressions holds back what an older clean one let through", async () => {
    const { client } = testDb();
    const { documentId, author, publisher } = await inReview();
    await finishedEvaluation(client, documentId, author.id);
    await new Promise((r) => setTimeout(r, 5));
    const newer = await finishedEvaluation(client, documentId, author.id, regressingResults());
    expect(await refusalCode(publishVersion({ documentId, actor: publisher, client }))).toBe("regression_unacknowledged");
    await acknowledgeRegression({ evaluationId: newer, actor: publisher, client });
    await publishVersion({ documentId, actor: publisher, client });
  });

  it("needs a new evaluation when the content changed after the evaluation: the earlier draft's does not count, nor its acknowledgement", async () => {
    const { client } = testDb();
    const { documentId, author, publisher, markdown } = await inReview();
    const evaluationId = await finishedEvaluation(client, documentId, author.id, regressingResults());
    await withdrawFromReview({ documentId, actor: author, client });
    const { contentHash } = await client.policyDocument.findUniqueOrThrow({ where: { id: documentId } });
    await saveDraft({
      documentId,
      source: markdown.replace("never expire", "expire after five years"),
      expectedContentHash: contentHash,
      actor: author,
      client,
    });
    // The old content's regressions can no longer be acknowledged: they are not this content's.
    expect(await refusalCode(acknowledgeRegression({ evaluationId, actor: publisher, client }))).toBe("evaluation_state");
    await submitForReview({ documentId, actor: author, client });
    expect(await refusalCode(publishVersion({ documentId, actor: publisher, client }))).toBe("evaluation_required");
    await finishedEvaluation(client, documentId, author.id);
    await publishVersion({ documentId, actor: publisher, client });
  });

  it("acknowledges only a finished evaluation that found regressions", async () => {
    const { client } = testDb();
    const { documentId, author, publisher } = await inReview();
    const clean = await finishedEvaluation(client, documentId, author.id);
    expect(await refusalCode(acknowledgeRegression({ evaluationId: clean, actor: publisher, client }))).toBe("evaluation_state");
    const { evaluationId: running } = await startEvaluation({ documentId, actor: author, client });
    expect(await refusalCode(acknowledgeRegression({ evaluationId: running, actor: publisher, client }))).toBe("evaluation_state");
    expect(await refusalCode(acknowledgeRegression({ evaluationId: "nope", actor: publisher, client }))).toBe("not_found");
    expect(await refusalCode(acknowledgeRegression({ evaluationId: crypto.randomUUID(), actor: publisher, client }))).toBe("not_found");
  });

  it("reads on the page what the gate reads: nothing, running, regressions, acknowledged by name, and an earlier content's that no longer counts", async () => {
    const { client } = testDb();
    const { documentId, author, publisher, markdown } = await inReview();
    const view = async () => {
      const { contentHash } = await client.policyDocument.findUniqueOrThrow({ where: { id: documentId } });
      return loadVersionEvaluation({ documentId, contentHash, client });
    };
    expect(await view()).toMatchObject({ latest: null, gate: "evaluation_required", earlierContentEvaluated: false });
    await startEvaluation({ documentId, actor: author, client });
    expect(await view()).toMatchObject({
      latest: { status: "queued", startedBy: expect.stringMatching(/^Person \d+$/) },
      gate: "evaluation_required",
    });
    const evaluationId = await finishedEvaluation(client, documentId, author.id, regressingResults());
    expect(await view()).toMatchObject({ gate: "regression_unacknowledged" });
    await acknowledgeRegression({ evaluationId, actor: publisher, note: "Known.", client });
    const acknowledged = await view();
    expect(acknowledged.gate).toBeNull();
    expect(acknowledged.corpusHashNow).toMatch(/^[0-9a-f]{64}$/);

    await withdrawFromReview({ documentId, actor: author, client });
    const { contentHash } = await client.policyDocument.findUniqueOrThrow({ where: { id: documentId } });
    await saveDraft({
      documentId,
      source: markdown.replace("never expire", "expire"),
      expectedContentHash: contentHash,
      actor: author,
      client,
    });
    expect(await view()).toMatchObject({ latest: null, gate: "evaluation_required", earlierContentEvaluated: true });
  });
});
