// From a person's judgement to evaluation data: a reviewer rejects the agent's refund, the run waits in
// the annotation queue, is assigned and judged wrong with a corrected reply, saved as a candidate
// episode without the customer's personal data, promoted by a lead into the team dataset, and graded
// by the next evaluation a lead starts on that dataset – the real job, in a process of its own –
// against the team dataset's own pin.
import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { drainQueue } from "../../testing/queue";
import { refusalCode } from "../../testing/refusals";
import { approvalFor, freshOrder, ticketFrom, user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { decideApproval } from "../approvals/decide-approval";
import { startAgentEvaluation, ZEvaluationOptions } from "./agent-evaluation";
import { annotateRun, ZAnnotation } from "./annotate-run";
import { assignAnnotation } from "./assign-annotation";
import { listAnnotationQueue } from "./list-annotation-queue";
import { reviewEpisodeCandidate } from "./review-episode-candidate";
import { saveEpisodeCandidate } from "./save-episode-candidate";
import { loadTeamDataset, TEAM_DATASET } from "./team-dataset";

const testDb = useTestDb();

describe("a reviewer's rejection becomes an episode", () => {
  it("is queued, judged, saved without personal data, promoted by a lead and graded by the next team evaluation", { timeout: 300_000 }, async () => {
    const db = testDb();
    const { client } = db;
    await seedDemo(client);
    const [reviewer, lead] = [await user(client, "REVIEWER"), await user(client, "LEAD")];
    const world = await freshOrder(client);
    const customer = await client.customer.findFirstOrThrow({ where: { email: world.email } });
    const ticketId = await ticketFrom(client, world, {
      subject: "Tablet arrived with a cracked screen",
      body: `Hi, this is ${customer.name} (${world.email}), 12 Baker Street. My Aurora tablet (order ${world.orderId}) arrived with a cracked screen. Can I get a refund?`,
    });
    const request = await approvalFor(client, ticketId);
    await decideApproval({ approvalId: request.id, decision: "reject", digest: request.digest, note: "Photos first, please.", actor: reviewer, client });
    const runId = request.runId!;

    expect(await listAnnotationQueue({ client })).toEqual([expect.objectContaining({ runId, source: "rejected", assignee: null })]);
    await assignAnnotation({ runId, assigneeId: reviewer.id, actor: lead, client });
    expect((await listAnnotationQueue({ client, assigneeId: reviewer.id })).map((r) => r.runId)).toEqual([runId]);

    const annotation = ZAnnotation.parse({ runId, verdict: "wrong", reason: "reply_wrong", correctedReply: "Please send us a photo of the screen first.", correctedAmount: "" });
    await annotateRun({ annotation, actor: reviewer, client });
    expect(await listAnnotationQueue({ client })).toEqual([]);

    const { candidateId, episodeId } = await saveEpisodeCandidate({ runId, actor: reviewer, client });
    expect(await refusalCode(saveEpisodeCandidate({ runId, actor: reviewer, client }))).toBe("annotation_state");
    const { episode } = await client.episodeCandidate.findUniqueOrThrow({ where: { id: candidateId } });
    const text = JSON.stringify(episode);
    for (const personal of [customer.name, world.email, "Baker Street", world.orderId]) expect(text).not.toContain(personal);
    expect(episode).toMatchObject({
      id: episodeId,
      ticket: { body: "Hi, this is [name] ([email]), [address]. My Aurora tablet (order {order}) arrived with a cracked screen. Can I get a refund?", order: "tablet" },
      planner: "rule",
      approval: { as: "REVIEWER", decision: "reject", note: "Photos first, please." },
      expect: { status: "needs_human", reason: "draft_ready_for_review", refunds: 0, approval: "decided" },
    });

    // Nothing promoted yet: the team dataset is not offered.
    const options = ZEvaluationOptions.parse({ dataset: TEAM_DATASET, planner: "as-written", model: "", trials: 1 });
    expect(await refusalCode(startAgentEvaluation({ options, actor: lead, client }))).toBe("invalid");
    expect(await refusalCode(reviewEpisodeCandidate({ candidateId, decision: "promote", actor: reviewer, client }))).toBe("forbidden");
    const { teamHash } = await reviewEpisodeCandidate({ candidateId, decision: "promote", actor: lead, client });
    expect(await refusalCode(reviewEpisodeCandidate({ candidateId, decision: "discard", actor: lead, client }))).toBe("annotation_state");
    const team = await loadTeamDataset(client);
    expect(team.dataset).toMatchObject({ hash: teamHash, episodes: [expect.objectContaining({ id: episodeId })] });

    const { requestId } = await startAgentEvaluation({ options, actor: lead, client });
    await drainQueue(db, { timeoutMs: 240_000 });
    const evaluation = await client.evalRequest.findUniqueOrThrow({ where: { id: requestId } });
    expect(evaluation, evaluation.error ?? "").toMatchObject({ status: "done", datasetPath: TEAM_DATASET, done: 1, total: 1 });
    const run = await client.evalRun.findUniqueOrThrow({ where: { id: evaluation.evalRunId! }, include: { episodes: true, decisions: true } });
    expect(run).toMatchObject({ datasetHash: teamHash, datasetVersion: "team-episodes-v1" });
    expect(run.episodes.map((e) => [e.episodeId, e.passed, e.explanation])).toEqual([[episodeId, true, null]]);
    // Held to the team dataset's own pin, not the shipped one's: every episode passed, so eligible.
    expect(run.decisions.map((d) => [d.outcome, d.reason])).toEqual([["eligible_for_shadow", null]]);

    const actions = await client.auditEvent.findMany({ where: { action: { in: ["annotation.assigned", "run.annotated", "episode.saved", "episode.promoted"] } }, select: { action: true } });
    expect(actions.map((a) => a.action).sort()).toEqual(["annotation.assigned", "episode.promoted", "episode.saved", "run.annotated"]);
  });
});
