// What a run writes, and when: the steps it took reach the trace and the audit chain whichever way it
// ends (a lost lease, a thrown error), the order lookup finds the order whatever case the customer
// typed and reads through its index, and the daily auto-approve cap holds under concurrency.
import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { freshOrder, tabletTicket, user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { Prisma } from "../db";
import { updatePolicySettings } from "../policy/update-settings";
import { refusalCode } from "../../testing/refusals";
import type { TPlanner } from "./planner";
import { runAgent, RunInterrupted } from "./run-agent";
import { interruptExpiredRuns } from "./sweep-runs";
import { orderFacts, orderRowSql } from "./tools";

const testDb = useTestDb(seedDemo);
const onPostgres = !!process.env.DATABASE_URL;

/** Looks up the policy, then does `meanwhile` before handing the ticket to a person. */
function plannerThat(meanwhile: () => Promise<void>): TPlanner {
  let step = 0;
  return {
    id: "scripted",
    decide: async () => {
      if (step++ === 0)
        return { decision: { action: "get_policy_evidence", args: { question: "refund for damaged electronics: cracked" } } };
      await meanwhile();
      return { decision: { action: "request_human_approval", args: { reason: "please check" } } };
    },
  };
}

async function written(runId: string) {
  const { client } = testDb();
  const trace = await client.traceEvent.findMany({ where: { runId }, orderBy: { step: "asc" } });
  const events = await client.auditEvent.findMany({ where: { actorId: runId }, orderBy: { seq: "asc" } });
  return { trace: trace.map((t) => `${t.step}:${t.action}:${t.outcome}`), events: events.map((e) => e.action) };
}

describe("a run's steps are written however it ends", () => {
  it("keeps the trace and the calls' events of a run that lost its lease, and writes nothing of its ending", async () => {
    const { client } = testDb();
    const tId = await tabletTicket(client, await freshOrder(client));
    // The sweep of a server whose clock is an hour ahead: every lease has run out.
    const sweep = async () => void (await interruptExpiredRuns({ now: new Date(Date.now() + 3_600_000) }));
    const error = await runAgent({ ticketId: tId, planner: plannerThat(sweep) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunInterrupted);
    const runId = (error as RunInterrupted).runId;
    expect(await written(runId)).toEqual({
      trace: ["1:get_policy_evidence:ok", "2:request_human_approval:ok"],
      events: ["run.started", "tool.called", "tool.called"],
    });
    expect(await client.agentRun.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({
      status: "interrupted",
      reason: "run_interrupted",
      draft: null,
    });
    expect(await client.ticket.findUniqueOrThrow({ where: { id: tId } })).toMatchObject({
      status: "needs_human",
      reason: "run_interrupted",
    });
    expect(await client.approvalRequest.count({ where: { ticketId: tId } })).toBe(0);
  });

  it("interrupts a run whose ticket was taken from under it, and leaves the ticket where it is", async () => {
    const { client } = testDb();
    const tId = await tabletTicket(client, await freshOrder(client));
    // Something outside the lifecycle resolves the ticket; then a sweep finds the run's lease run out.
    let swept: string[] = [];
    const resolveThenSweep = async () => {
      await client.$executeRaw`UPDATE "Ticket" SET "status" = 'resolved' WHERE id = ${tId}::uuid`;
      swept = (await interruptExpiredRuns({ now: new Date(Date.now() + 3_600_000) })).interrupted;
    };
    const error = await runAgent({ ticketId: tId, planner: plannerThat(resolveThenSweep) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunInterrupted);
    const runId = (error as RunInterrupted).runId;
    expect(swept).toContain(runId);
    expect(await client.agentRun.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({
      status: "interrupted",
      reason: "run_interrupted",
    });
    expect(await client.ticket.findUniqueOrThrow({ where: { id: tId } })).toMatchObject({ status: "resolved" });
    expect(await client.auditEvent.count({ where: { action: "run.interrupted", subjectId: runId } })).toBe(1);
  });

  it("keeps the trace and the calls' events of a run whose end throws", async () => {
    const { client } = testDb();
    const tId = await tabletTicket(client, await freshOrder(client));
    // Something outside the lifecycle takes the ticket from under the run: its end is refused.
    const grab = async () => void (await client.$executeRaw`UPDATE "Ticket" SET "status" = 'resolved' WHERE id = ${tId}::uuid`);
    expect(await refusalCode(runAgent({ ticketId: tId, planner: plannerThat(grab) }))).toBe("ticket_resolved");
    const run = await client.agentRun.findFirstOrThrow({ where: { ticketId: tId } });
    expect(await written(run.id)).toEqual({
      trace: ["1:get_policy_evidence:ok", "2:request_human_approval:ok"],
      events: ["run.started", "tool.called", "tool.called"],
    });
    expect(run).toMatchObject({ status: "running", finishedAt: null });
  });

  it("writes a refused decision's event and trace with the run's end", async () => {
    const { client } = testDb();
    const tId = await tabletTicket(client, await freshOrder(client));
    const planner: TPlanner = { id: "scripted", decide: async () => ({ decision: { action: "issue_refund", args: {} } }) };
    const run = await runAgent({ ticketId: tId, planner });
    expect(run).toMatchObject({ status: "blocked", reason: "forbidden_action" });
    expect(await written(run.runId)).toEqual({
      trace: ["1:issue_refund:blocked"],
      events: ["run.started", "decision.blocked", "run.stopped"],
    });
  });
});

describe("the order lookup", () => {
  it("finds the order whatever case and spaces the customer typed, an exact match first", async () => {
    const { client } = testDb();
    const world = await freshOrder(client);
    expect((await orderFacts(client, ` ${world.orderId.toLowerCase()} `))?.id).toBe(world.orderId);
    const run = await runAgent({ ticketId: await tabletTicket(client, { ...world, orderId: world.orderId.toLowerCase() }) });
    expect(run).toMatchObject({
      status: "needs_human",
      reason: "draft_ready_for_review",
      proposal: { orderId: world.orderId, amountCents: 7900 },
    });

    const customer = await client.customer.findFirstOrThrow({ where: { email: world.email } });
    const twin = {
      customerId: customer.id,
      item: "Aurora 10-inch tablet",
      category: "electronics",
      amountCents: 100,
      placedAt: new Date(),
    };
    await client.order.createMany({
      data: [
        { ...twin, id: "ORD-CASE-b" },
        { ...twin, id: "ORD-CASE-B" },
      ],
    });
    expect((await orderFacts(client, "ORD-CASE-b"))?.id).toBe("ORD-CASE-b");
    expect((await orderFacts(client, "ORD-CASE-B"))?.id).toBe("ORD-CASE-B");
    expect(await orderFacts(client, "ORD-CASE-C")).toBeNull();
  });

  it("reads the order and the day's auto-approved total through their indexes", async () => {
    const { client } = testDb();
    const plans = await client.$transaction(async (tx) => {
      // The tables here are small enough for a scan; what matters is that an index can serve them.
      await tx.$executeRaw`SET LOCAL enable_seqscan = off`;
      const plan = async (query: Prisma.Sql) =>
        (await tx.$queryRaw<{ "QUERY PLAN": string }[]>`EXPLAIN ${query}`).map((r) => r["QUERY PLAN"]).join("\n");
      return {
        order: await plan(Prisma.sql`SELECT ${orderRowSql(Prisma.sql`${"ord-1001"}`)}`),
        dayTotal: await plan(
          Prisma.sql`SELECT coalesce(sum("amountCents"), 0) FROM "RefundProposal" WHERE decision = 'auto_approved' AND NOT simulated AND "createdAt" >= ${"2026-11-22 00:00:00.000"}::timestamp`,
        ),
      };
    });
    expect(plans.order).toContain("Order_upper_id_idx");
    expect(plans.dayTotal).toContain("RefundProposal_decision_simulated_createdAt_idx");
    expect(plans.dayTotal).toMatch(/Index Cond: .*simulated = false.*createdAt/);
  });
});

describe.runIf(onPostgres)("under concurrency (PostgreSQL)", () => {
  it("auto-approves no more than the daily cap when eight runs within the dial race for it", async () => {
    const { client } = testDb();
    const admin = await user(client, "ADMIN");
    const worlds = await Promise.all(Array.from({ length: 8 }, () => freshOrder(client)));
    const tickets = await Promise.all(worlds.map((w) => tabletTicket(client, w)));
    const startOfDay = new Date();
    startOfDay.setUTCHours(0, 0, 0, 0);
    const before = await client.refundProposal.aggregate({
      where: { decision: "auto_approved", simulated: false, createdAt: { gte: startOfDay } },
      _sum: { amountCents: true },
    });
    // Room for three 79 USD refunds today, and a dial that allows each of them.
    await updatePolicySettings({
      changes: { "autonomy.autoApproveLimitCents": 10_000, "policy.dailyCapCents": (before._sum.amountCents ?? 0) + 3 * 7_900 + 100 },
      actor: admin,
    });
    try {
      const runs = await Promise.all(tickets.map((ticketId) => runAgent({ ticketId })));
      expect(runs.filter((r) => r.status === "auto_approved")).toHaveLength(3);
      expect(runs.filter((r) => r.proposal?.reasons.includes("daily_cap_reached"))).toHaveLength(5);
    } finally {
      await updatePolicySettings({ changes: { "autonomy.autoApproveLimitCents": 0, "policy.dailyCapCents": 50_000 }, actor: admin });
    }
  });
});
