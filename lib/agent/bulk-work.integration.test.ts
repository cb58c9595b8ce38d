// Bulk work from the queue: assignments through the job queue with a result per ticket, the roles a
// batch needs whoever starts it, the per-ticket results of runs, and "select all in this view".
import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { refusalCode } from "../../testing/refusals";
import { drainQueue } from "../../testing/queue";
import { freshOrder, tabletTicket, user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { selectTicketsInView } from "../queue/select-tickets";
import { assignBatchItem, batchItemResults, batchProgress, MAX_BULK_TICKETS, startBatch } from "./batches";

const testDb = useTestDb(seedDemo);

describe("bulk assignment", () => {
  it("assigns every selected ticket through the job queue, audited per ticket, and refuses a resolved one in words", async () => {
    const db = testDb();
    const lead = await user(db.client, "LEAD");
    const specialist = await user(db.client, "SPECIALIST");
    const tickets: string[] = [];
    for (let i = 0; i < 3; i++) tickets.push(await tabletTicket(db.client, await freshOrder(db.client)));
    await db.client.ticket.update({ where: { id: tickets[2]! }, data: { status: "resolved" } });

    {
      const { batchId, total } = await startBatch({ ticketIds: tickets, work: { kind: "assign", assigneeId: specialist.id }, actor: lead });
      expect(total).toBe(3);
      await drainQueue(db);
      expect(await batchProgress(batchId)).toMatchObject({
        kind: "assign",
        mode: null,
        total: 3,
        done: 2,
        refused: 1,
        failed: 0,
        finished: true,
      });
      const results = await batchItemResults(batchId);
      expect(results.map((r) => [r.ticketId, r.status])).toEqual(
        expect.arrayContaining([
          [tickets[0], "done"],
          [tickets[1], "done"],
          [tickets[2], "refused"],
        ]),
      );
      expect(results.find((r) => r.ticketId === tickets[2])!.detail).toBe("This ticket is resolved: there is nothing left to work on.");
    }
    const assigned = await db.client.ticket.findMany({ where: { id: { in: tickets } }, select: { id: true, assigneeId: true } });
    expect(Object.fromEntries(assigned.map((t) => [t.id, t.assigneeId]))).toEqual({
      [tickets[0]!]: specialist.id,
      [tickets[1]!]: specialist.id,
      [tickets[2]!]: null,
    });
    const events = await db.client.auditEvent.findMany({ where: { action: "ticket.assigned", ticketId: { in: tickets } } });
    expect(events.map((e) => [e.ticketId, e.actorId])).toEqual(
      expect.arrayContaining([
        [tickets[0], lead.id],
        [tickets[1], lead.id],
      ]),
    );
    expect(events).toHaveLength(2);
  });

  it("does an item once: a retried job whose item settled does nothing", async () => {
    const db = testDb();
    const ticket = await tabletTicket(db.client, await freshOrder(db.client));
    const reviewer = await user(db.client, "REVIEWER");
    const { batchId } = await startBatch({
      ticketIds: [ticket],
      work: { kind: "assign", assigneeId: reviewer.id },
      actor: await user(db.client, "ADMIN"),
    });
    expect(await assignBatchItem({ batchId, ticketId: ticket })).toBe("done");
    expect(await assignBatchItem({ batchId, ticketId: ticket })).toBe("skipped");
    expect(await db.client.auditEvent.count({ where: { action: "ticket.assigned", ticketId: ticket } })).toBe(1);
  });

  it("checks the starter as of each item: a person deactivated since assigns nothing", async () => {
    const db = testDb();
    const ticket = await tabletTicket(db.client, await freshOrder(db.client));
    const starter = await db.client.user.create({
      data: { email: `bulk-${Date.now()}@example.test`, name: "Bulk Starter", role: "REVIEWER", passwordHash: "x" },
    });
    const { batchId } = await startBatch({
      ticketIds: [ticket],
      work: { kind: "assign", assigneeId: starter.id },
      actor: { id: starter.id, role: "REVIEWER" },
    });
    await db.client.user.update({ where: { id: starter.id }, data: { active: false } });
    expect(await assignBatchItem({ batchId, ticketId: ticket })).toBe("refused");
    expect((await db.client.ticket.findUniqueOrThrow({ where: { id: ticket } })).assigneeId).toBeNull();
  });

  it("refuses a role that may not do the work, an empty selection and one beyond the limit, writing nothing", async () => {
    const db = testDb();
    const ticket = await tabletTicket(db.client, await freshOrder(db.client));
    const before = await db.client.agentBatch.count();
    // Leads hand work out but never run the agent.
    expect(
      await refusalCode(startBatch({ ticketIds: [ticket], work: { kind: "bulk", mode: "live" }, actor: await user(db.client, "LEAD") })),
    ).toBe("forbidden");
    expect(
      await refusalCode(startBatch({ ticketIds: [], work: { kind: "bulk", mode: "simulate" }, actor: await user(db.client, "REVIEWER") })),
    ).toBe("invalid");
    const tooMany = Array.from({ length: MAX_BULK_TICKETS + 1 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);
    expect(
      await refusalCode(
        startBatch({
          ticketIds: tooMany,
          work: { kind: "bulk", mode: "simulate" },
          actor: await user(db.client, "REVIEWER"),
          limit: MAX_BULK_TICKETS,
        }),
      ),
    ).toBe("invalid");
    expect(await db.client.agentBatch.count()).toBe(before);
  });

  it("keeps a batch's work and its kind together in the database", async () => {
    const db = testDb();
    const reviewer = await user(db.client, "REVIEWER");
    await expect(
      db.client.agentBatch.create({ data: { kind: "assign", mode: "live", assigneeId: reviewer.id, total: 1 } }),
    ).rejects.toThrow(/AgentBatch_work_check/);
    await expect(db.client.agentBatch.create({ data: { kind: "bulk", mode: null, total: 1 } })).rejects.toThrow(/AgentBatch_work_check/);
  });
});

describe("select all in this view", () => {
  it("selects the view's tickets in its order up to the limit, and says when it holds more", async () => {
    const db = testDb();
    const reviewer = await user(db.client, "REVIEWER");
    const open = await db.client.ticket.findMany({
      where: { status: { not: "resolved" } },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: { id: true },
    });
    expect(open.length).toBeGreaterThan(3);
    const all = await selectTicketsInView({ query: { view: "open" }, userId: reviewer.id, limit: MAX_BULK_TICKETS });
    expect(all).toEqual({ ticketIds: open.map((t) => t.id), more: false });
    const firstThree = await selectTicketsInView({ query: { view: "open" }, userId: reviewer.id, limit: 3 });
    expect(firstThree).toEqual({ ticketIds: open.slice(0, 3).map((t) => t.id), more: true });
    // The queue's own list (newest first) and a search select the same way.
    const newest = await selectTicketsInView({ query: { status: "all" }, userId: reviewer.id, limit: 2 });
    expect(newest.more).toBe(true);
    expect(newest.ticketIds).toHaveLength(2);
  });
});
