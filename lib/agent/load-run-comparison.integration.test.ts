import { beforeAll, describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { seedDemo } from "../../prisma/seed/demo";
import { seedE2eFixtures, seedE2eTraceRuns } from "../../prisma/seed/e2e";
import { loadRunComparison } from "./load-run-comparison";
import { runAgent } from "./run-agent";

const testDb = useTestDb(seedDemo);
let traceTicket = "";
let otherTicket = "";
let otherRun = "";

beforeAll(async () => {
  const { client } = testDb();
  await seedE2eFixtures(client);
  expect(await seedE2eTraceRuns(client)).toBe(2);
  traceTicket = (await client.ticket.findUniqueOrThrow({ where: { externalId: "e2e-trace" } })).id;
  otherTicket = (await client.ticket.findUniqueOrThrow({ where: { externalId: "demo-cracked-tablet" } })).id;
  otherRun = (await runAgent({ ticketId: otherTicket, mode: "simulate", client })).runId;
});

describe("loadRunComparison", () => {
  it("compares the two newest runs by default, the older as A, step by step", async () => {
    const page = (await loadRunComparison({ ticketId: traceTicket, client: testDb().client }))!;
    const { a, b, steps, firstDifference, counts } = page.comparison!;
    expect([a.planner, b.planner]).toEqual(["scripted", "rule"]);
    expect([a, b].map((r) => [r.mode, r.status, r.reason])).toEqual([
      ["simulate", "needs_human", "draft_ready_for_review"],
      ["simulate", "needs_human", "draft_ready_for_review"],
    ]);
    expect(page.offered.map((r) => r.id)).toEqual([b.id, a.id]);
    // The scripted run asked for another customer's order (the policy rewrote the step to the
    // ticket's order, which the trace stores) and stopped before a refund; the rule planner looked
    // the ticket's order up and proposed one.
    expect(steps.map((s) => [s.step, s.a?.action ?? null, s.b?.action ?? null, s.change, s.differs.join(",")])).toEqual([
      [1, "get_policy_evidence", "get_policy_evidence", "same", ""],
      [2, "lookup_order", "lookup_order", "changed", "outcome,policy"],
      [3, "draft_reply", "draft_reply", "same", ""],
      [4, "request_human_approval", "propose_refund", "changed", "action,arguments,result"],
      [5, null, "request_human_approval", "added", ""],
    ]);
    expect(firstDifference).toBe(2);
    expect(counts).toEqual({ same: 2, changed: 2, added: 1, removed: 0 });
    expect(steps[1]!.a).toMatchObject({ outcome: "rewritten", policyDecision: { decision: "rewrite", reasons: ["order_not_on_ticket"] } });
    expect(a.tokensUsed).toBeGreaterThan(0);
  });

  it("compares the runs it is given, in the order given", async () => {
    const first = (await loadRunComparison({ ticketId: traceTicket, client: testDb().client }))!.comparison!;
    const swapped = (await loadRunComparison({ ticketId: traceTicket, a: first.b.id, b: first.a.id, client: testDb().client }))!
      .comparison!;
    expect(swapped.steps.map((s) => s.change)).toEqual(["same", "changed", "same", "changed", "removed"]);
  });

  it("answers null for a run of another ticket, an unknown run, a malformed id and an unknown ticket", async () => {
    const { client } = testDb();
    const mine = (await loadRunComparison({ ticketId: traceTicket, client }))!.comparison!.b.id;
    expect(await loadRunComparison({ ticketId: traceTicket, a: otherRun, b: mine, client })).toBeNull();
    expect(await loadRunComparison({ ticketId: traceTicket, a: mine, b: "00000000-0000-4000-8000-000000000000", client })).toBeNull();
    expect(await loadRunComparison({ ticketId: traceTicket, a: "not-a-run", client })).toBeNull();
    expect(await loadRunComparison({ ticketId: "00000000-0000-4000-8000-000000000000", client })).toBeNull();
  });

  it("has nothing to compare on a ticket with one run", async () => {
    const page = (await loadRunComparison({ ticketId: otherTicket, client: testDb().client }))!;
    expect(page.offered).toHaveLength(1);
    expect(page.comparison).toBeNull();
  });
});
