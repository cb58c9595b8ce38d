// An evaluation a lead starts is a job: the real worker takes it, the grading runs in a process of its
// own (scripts/eval.ts, as `npm run eval` runs it), its progress reaches the request, and the receipt
// is stored with its release decision and its cost on the test's database (PGlite, or PostgreSQL with
// DATABASE_URL). A reviewer may not start one; a dataset outside the list is refused.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { drainQueue } from "../../testing/queue";
import { refusalCode } from "../../testing/refusals";
import { user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { listEvalRequests, startAgentEvaluation, ZEvaluationOptions } from "./agent-evaluation";

const testDb = useTestDb();
const root = mkdtempSync(join(tmpdir(), "countersign-agent-eval-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The shipped dataset's header and its first three episodes. */
function smallDataset(): string {
  const path = join(root, "three-episodes.jsonl");
  writeFileSync(path, readFileSync("eval/episodes.jsonl", "utf8").split("\n").filter(Boolean).slice(0, 4).join("\n") + "\n");
  return path;
}

describe("an evaluation started from the app", () => {
  it("runs as a job in a process of its own and stores its receipt, decision and cost", { timeout: 600_000 }, async () => {
    const db = testDb();
    const { client } = db;
    await seedDemo(client);
    const lead = await user(client, "LEAD");
    const dataset = smallDataset();
    const options = ZEvaluationOptions.parse({ dataset, planner: "rule", model: "", trials: "2" });
    const { requestId } = await startAgentEvaluation({ options, actor: lead, client, datasets: [dataset] });
    expect((await listEvalRequests(client))[0]).toMatchObject({ id: requestId, status: "queued", trials: 2, planner: "rule" });

    await drainQueue(db, { timeoutMs: 480_000 });
    const request = await client.evalRequest.findUniqueOrThrow({ where: { id: requestId } });
    expect(request, request.error ?? "").toMatchObject({ status: "done", error: null, done: 6, total: 6 });
    const run = await client.evalRun.findUniqueOrThrow({ where: { id: request.evalRunId! }, include: { decisions: true, episodes: true } });
    expect(run).toMatchObject({ trials: 2, createdById: lead.id, modelId: "none (rule planner)" });
    expect(run.episodes).toHaveLength(6);
    expect(run.passed + run.failed).toBe(6);
    // Every episode on the rule planner: no model was called, nothing was spent.
    expect(Number(run.costUsd)).toBe(0);
    // Three episodes are not the pinned dataset: held, in the server's words.
    expect(run.decisions.map((d) => d.outcome)).toEqual(["hold"]);
    const events = await client.auditEvent.findMany({ where: { subjectId: { in: [requestId, run.id] } }, select: { action: true } });
    expect(events.map((e) => e.action).sort()).toEqual(["evaluation.started", "release.decided"]);
  });

  it("is refused to a reviewer, and for a dataset that is not offered", async () => {
    const { client } = testDb();
    await seedDemo(client);
    const before = await client.evalRequest.count();
    const options = ZEvaluationOptions.parse({ dataset: "eval/episodes.jsonl", planner: "as-written", model: "", trials: 1 });
    expect(await refusalCode(startAgentEvaluation({ options, actor: await user(client, "REVIEWER"), client }))).toBe("forbidden");
    const elsewhere = { ...options, dataset: "../../etc/passwd" };
    expect(await refusalCode(startAgentEvaluation({ options: elsewhere, actor: await user(client, "LEAD"), client }))).toBe("invalid");
    expect(ZEvaluationOptions.safeParse({ ...options, trials: 11 }).success).toBe(false);
    expect(ZEvaluationOptions.safeParse({ ...options, model: "gpt; rm -rf" }).success).toBe(false);
    expect(await client.evalRequest.count()).toBe(before);
  });
});
