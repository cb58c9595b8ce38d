import { beforeAll, describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { decodeCursor } from "../db/keyset";
import { decideRelease } from "./decide-release";
import type { TEpisodeRow } from "./grade-episodes";
import { listEpisodeResults, listEvalRuns, listReleaseDecisions, loadEvalRun } from "./list-eval-runs";
import { buildReceipt } from "./receipt";
import { storeEvalRun } from "./store-eval-run";

const testDb = useTestDb();

const expect_ = (path: string[]) => ({ status: "needs_human", reason: "draft_ready_for_review", path, citations: [], refunds: 0 }) as TEpisodeRow["expected"];
const row = (episodeId: string, trial: number, passed: boolean): TEpisodeRow => ({
  episodeId,
  trial,
  passed,
  expected: expect_(["lookup_order", "draft_reply"]),
  actual: { status: "needs_human", reason: "draft_ready_for_review", path: passed ? ["lookup_order", "draft_reply"] : ["draft_reply"], citations: [], refunds: 0, proposal: null },
  explanation: passed ? null : "path differs at step 1",
});

const DAY = Date.parse("2026-11-01T00:00:00.000Z");
const runIds: string[] = [];

/** Stores a run of `episodes` episodes × `trials`, failing the listed episode ids in every trial. */
async function store(i: number, agentVersion: string, episodes: number, trials: number, failing: string[] = []) {
  const { client } = testDb();
  const ids = Array.from({ length: episodes }, (_, n) => `ep-${String(n).padStart(4, "0")}`);
  const rows = ids.flatMap((id) => Array.from({ length: trials }, (_, t) => row(id, t + 1, !failing.includes(id))));
  const receipt = buildReceipt({ agentVersion, datasetVersion: "ds-v1", datasetHash: "sha256:abc", graderVersion: "trajectory-gate-v1", corpusHash: "test", modelId: "none", commit: `c0ffee${i}`, trials, rows });
  const pins = { agentVersion, datasetVersion: "ds-v1", datasetHash: "sha256:abc", datasetEpisodes: episodes, graderVersion: "trajectory-gate-v1" };
  const decision = decideRelease(receipt, pins, { hash: "sha256:abc", episodeIds: ids });
  const run = await storeEvalRun({ receipt, decision, client });
  // Distinct times, in insertion order (both rows may be rewritten: neither is append-only).
  await client.evalRun.update({ where: { id: run.id }, data: { createdAt: new Date(DAY + i * 3_600_000) } });
  await client.releaseDecision.updateMany({ where: { evalRunId: run.id }, data: { createdAt: new Date(DAY + i * 3_600_000) } });
  runIds.push(run.id);
  return run.id;
}

beforeAll(async () => {
  await store(0, "refund-agent-v1", 3, 1, ["ep-0001"]);
  await store(1, "refund-agent-v2", 3, 1);
  await store(2, "refund-agent-v2", 3, 2, ["ep-0002"]);
  await store(3, "refund-agent-v2", 250, 4, ["ep-0007", "ep-0100", "ep-0249"]); // 1,000 rows
  await store(4, "refund-agent-v2", 2, 1);
});

describe("listEvalRuns", () => {
  it("lists runs newest first with their release decision", async () => {
    const page = await listEvalRuns();
    expect(page.total).toBe(5);
    expect(page.rows.map((r) => r.commit)).toEqual(["c0ffee4", "c0ffee3", "c0ffee2", "c0ffee1", "c0ffee0"]);
    expect(page.rows[2]).toMatchObject({ agentVersion: "refund-agent-v2", trials: 2, passed: 4, failed: 2, decision: { outcome: "hold", reason: "failed:ep-0002" } });
    expect(page.rows[3]!.decision).toMatchObject({ outcome: "eligible_for_shadow", reason: null });
    expect(page.newerCursor).toBeNull();
    expect(page.olderCursor).toBeNull();
  });

  it("pages with keyset cursors, neither repeating nor skipping, and back again", async () => {
    const first = await listEvalRuns({ pageSize: 2 });
    const second = await listEvalRuns({ pageSize: 2, cursor: decodeCursor(first.olderCursor!)! });
    const third = await listEvalRuns({ pageSize: 2, cursor: decodeCursor(second.olderCursor!)! });
    expect([...first.rows, ...second.rows, ...third.rows].map((r) => r.commit)).toEqual(["c0ffee4", "c0ffee3", "c0ffee2", "c0ffee1", "c0ffee0"]);
    expect(third.olderCursor).toBeNull();
    const back = await listEvalRuns({ pageSize: 2, cursor: decodeCursor(third.newerCursor!)! });
    expect(back.rows.map((r) => r.commit)).toEqual(["c0ffee2", "c0ffee1"]);
  });
});

describe("listReleaseDecisions", () => {
  it("gives the history newest first, with the run it decided", async () => {
    const history = await listReleaseDecisions({ take: 3 });
    expect(history.total).toBe(5);
    expect(history.rows.map((d) => [d.commit, d.outcome])).toEqual([
      ["c0ffee4", "eligible_for_shadow"],
      ["c0ffee3", "hold"],
      ["c0ffee2", "hold"],
    ]);
    expect(history.rows[1]).toMatchObject({ agentVersion: "refund-agent-v2", reason: "failed:ep-0007,ep-0100,ep-0249", decidedBy: null, evalRunId: runIds[3] });
  });
});

describe("loadEvalRun", () => {
  it("loads the identity, every decision and the episode counts", async () => {
    const run = await loadEvalRun({ id: runIds[3]! });
    expect(run).toMatchObject({ datasetVersion: "ds-v1", datasetHash: "sha256:abc", graderVersion: "trajectory-gate-v1", trials: 4, passed: 988, failed: 12, episodes: 250, failedEpisodes: 3 });
    expect(run!.decisions).toHaveLength(1);
    expect(await loadEvalRun({ id: "00000000-0000-4000-8000-000000000000" })).toBeNull();
  });
});

describe("listEpisodeResults", () => {
  it("puts failed rows first, then orders by episode and trial, a page at a time", async () => {
    const first = await listEpisodeResults({ evalRunId: runIds[3]!, pageSize: 50 });
    expect(first).toMatchObject({ total: 1000, page: 1, pageCount: 20 });
    expect(first.rows.slice(0, 12).every((r) => !r.passed)).toBe(true);
    expect(first.rows.slice(0, 5).map((r) => `${r.episodeId}#${r.trial}`)).toEqual(["ep-0007#1", "ep-0007#2", "ep-0007#3", "ep-0007#4", "ep-0100#1"]);
    expect(first.rows[12]).toMatchObject({ passed: true, episodeId: "ep-0000", trial: 1 });
    expect(first.rows[0]!.explanation).toBe("path differs at step 1");

    const all: string[] = [];
    for (let page = 1; page <= 20; page++) all.push(...(await listEpisodeResults({ evalRunId: runIds[3]!, page })).rows.map((r) => r.id));
    expect(new Set(all).size).toBe(1000);
  });

  it("filters failed or passed rows and clamps a page past the end", async () => {
    const failed = await listEpisodeResults({ evalRunId: runIds[3]!, filter: "failed" });
    expect(failed).toMatchObject({ total: 12, pageCount: 1 });
    expect(failed.rows.every((r) => !r.passed)).toBe(true);
    const passed = await listEpisodeResults({ evalRunId: runIds[3]!, filter: "passed", page: 99 });
    expect(passed).toMatchObject({ total: 988, page: 20, pageCount: 20 });
    expect(passed.rows).toHaveLength(988 - 19 * 50);
    expect(passed.rows.every((r) => r.passed)).toBe(true);
    expect((await listEpisodeResults({ evalRunId: runIds[4]!, filter: "failed", page: 0 })).rows).toEqual([]);
  });
});

// Last in the file: it adds a run and a decision the expectations above do not count.
describe("names and the latest decision", () => {
  it("joins who created a run and who decided, shows a run's latest decision, and counts beyond the last page", async () => {
    const { client } = testDb();
    const lead = await client.user.create({ data: { email: "lena.lead@example.test", name: "Lena Lead", role: "LEAD", passwordHash: "unused" } });
    const id = await store(5, "refund-agent-v3", 2, 1);
    await client.evalRun.update({ where: { id }, data: { createdById: lead.id } });
    // A second decision on run 4, later than every stored one, by a person.
    await client.releaseDecision.create({ data: { evalRunId: runIds[4]!, outcome: "hold", reason: "manual:hold", decidedById: lead.id, createdAt: new Date(DAY + 10 * 3_600_000) } });

    const page = await listEvalRuns();
    expect(page.total).toBe(6);
    expect(page.rows[0]).toMatchObject({ commit: "c0ffee5", createdBy: "Lena Lead", decision: { outcome: "eligible_for_shadow", decidedBy: null } });
    expect(page.rows[1]).toMatchObject({ commit: "c0ffee4", createdBy: null, decision: { outcome: "hold", reason: "manual:hold", decidedBy: "Lena Lead" } });
    expect(page.rows[1]!.decision!.createdAt.toISOString()).toBe(new Date(DAY + 10 * 3_600_000).toISOString());

    const history = await listReleaseDecisions({ take: 2 });
    expect(history.total).toBe(7);
    expect(history.rows.map((d) => [d.commit, d.outcome, d.decidedBy])).toEqual([
      ["c0ffee4", "hold", "Lena Lead"],
      ["c0ffee5", "eligible_for_shadow", null],
    ]);
    expect(history.rows[0]!.evalRunId).toBe(runIds[4]);

    const beyond = await listEvalRuns({ cursor: { direction: "older", createdAt: new Date(DAY - 3_600_000), id: "00000000-0000-4000-8000-000000000000" } });
    expect(beyond).toEqual({ rows: [], total: 6, newerCursor: null, olderCursor: null });
  });
});
