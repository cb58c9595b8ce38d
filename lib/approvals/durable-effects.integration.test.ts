// Effects that survive crashes and races, on the real job queue. The concurrency and crash cases need
// real PostgreSQL (PGlite is one session); they run when DATABASE_URL is set, as in CI.
import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { killHard, spawnTs } from "../../testing/spawn-ts";
import { drainQueue, openJobs } from "../../testing/queue";
import {
  approvalFor as approvalFor_,
  freshOrder as freshOrder_,
  pendingApproval,
  tabletTicket as tabletTicket_,
  ticketId,
  user,
} from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { runAgent } from "../agent/run-agent";
import { updatePolicySettings } from "../policy/update-settings";
import { decideApproval } from "./decide-approval";
import { resolveByHand } from "./resolve-by-hand";
import { settleApprovedRefund } from "./settle-refund";
import { reconcileApprovedRefunds } from "./reconcile-refunds";
import { expirePendingApprovals } from "./sweep-approvals";
import { refusalCode } from "../../testing/refusals";
import { loadPaymentSettings } from "../payments/payment-settings";

const testDb = useTestDb(seedDemo);
const onPostgres = !!process.env.DATABASE_URL;

const freshOrder = () => freshOrder_(testDb().client);
const tabletTicket = (world: { email: string; orderId: string }) => tabletTicket_(testDb().client, world);
const approvalFor = (tId: string) => approvalFor_(testDb().client, tId);

describe("an approved refund goes through the job queue", () => {
  it("is executed by the worker after the approval; the reply is released only then, once", async () => {
    const db = testDb();
    const request = await approvalFor(await tabletTicket(await freshOrder()));
    const reviewer = await user(db.client, "REVIEWER");
    const decided = await decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, actor: reviewer });
    expect(decided.refundJobEnqueued).toBe(true);
    // Committed with the decision: the job, and no reply yet.
    expect(await openJobs(db)).toBe(1);
    expect(await db.client.outboxMessage.count({ where: { approvalRequestId: request.id } })).toBe(0);
    expect((await db.client.ticket.findUniqueOrThrow({ where: { id: request.ticketId } })).status).toBe("approved");

    await drainQueue(db);
    // With no payment setting at all (the demo), the ledger row is the whole refund: ledger-only,
    // succeeded when written, the reply released with it – no provider asked.
    expect((await loadPaymentSettings(db.client)).provider).toBe("ledger-only");
    expect(await db.client.ledgerEntry.findMany({ where: { approvalRequestId: request.id } })).toMatchObject([
      { provider: "ledger-only", state: "succeeded", providerRefundId: null },
    ]);
    expect(await db.client.outboxMessage.count({ where: { approvalRequestId: request.id } })).toBe(1);
    expect(await db.client.approvalRequest.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({
      executionOutcome: "refund_created",
    });
    expect(await db.client.ticket.findUniqueOrThrow({ where: { id: request.ticketId } })).toMatchObject({ status: "resolved" });

    // A retried job, or a second settlement: nothing more.
    expect(await settleApprovedRefund({ approvalId: request.id })).toMatchObject({ outcome: "refund_created", settledNow: false });
    expect(await db.client.ledgerEntry.count({ where: { approvalRequestId: request.id } })).toBe(1);
    expect(await db.client.outboxMessage.count({ where: { approvalRequestId: request.id } })).toBe(1);
  });

  it("sends no promise when the executor blocks the refund, and hands the ticket back with the reason", async () => {
    const db = testDb();
    const reviewer = await user(db.client, "REVIEWER");
    // Two approvals for the same 79 USD order: the second finds nothing left to refund.
    const world = await freshOrder();
    const first = await approvalFor(await tabletTicket(world));
    const second = await approvalFor(await tabletTicket(world));
    expect([first.kind, second.kind]).toEqual(["refund", "refund"]);
    await decideApproval({ approvalId: first.id, decision: "approve", digest: first.digest, actor: reviewer });
    await decideApproval({ approvalId: second.id, decision: "approve", digest: second.digest, actor: reviewer });
    await drainQueue(db);

    const outcomes = await db.client.approvalRequest.findMany({
      where: { id: { in: [first.id, second.id] } },
      select: { id: true, executionOutcome: true },
    });
    const blocked = outcomes.filter((o) => o.executionOutcome === "blocked:exceeds_refundable");
    expect(blocked).toHaveLength(1);
    expect(await db.client.outboxMessage.count({ where: { approvalRequestId: blocked[0]!.id } })).toBe(0);
    const blockedTicket = await db.client.approvalRequest.findUniqueOrThrow({ where: { id: blocked[0]!.id }, include: { ticket: true } });
    expect(blockedTicket.ticket).toMatchObject({ status: "needs_human", reason: "refund_blocked" });
  });

  it("re-enqueues, audited, an approved refund that has neither an outcome nor a job", async () => {
    const db = testDb();
    const request = await approvalFor(await tabletTicket(await freshOrder()));
    await decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, actor: await user(db.client, "REVIEWER") });
    // As an approval decided before the queue existed: its job is gone.
    await db.client.$executeRawUnsafe(`DELETE FROM pgboss.job WHERE id = $1::uuid`, request.id);
    expect((await reconcileApprovedRefunds({ olderThanMs: 0 })).reenqueued).toEqual([request.id]);
    expect((await reconcileApprovedRefunds({ olderThanMs: 0 })).reenqueued).toEqual([]);
    await drainQueue(db);
    expect(await db.client.ledgerEntry.count({ where: { approvalRequestId: request.id } })).toBe(1);
    expect(await db.client.auditEvent.count({ where: { action: "refund.reenqueued", subjectId: request.id } })).toBe(1);
  });

  it("settles an approval whose ticket is resolved already (decided before the lifecycle): the refund and the reply once, the ticket left resolved", async () => {
    const db = testDb();
    const request = await approvalFor(await tabletTicket(await freshOrder()));
    await decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, actor: await user(db.client, "REVIEWER") });
    await db.client.$executeRaw`UPDATE "Ticket" SET "status" = 'resolved' WHERE id = ${request.ticketId}::uuid`;
    // What the refund job does; the lifecycle refuses refund_executed from resolved, and that is fine.
    expect(await settleApprovedRefund({ approvalId: request.id })).toMatchObject({
      outcome: "refund_created",
      settledNow: true,
      replyReleased: true,
    });
    await drainQueue(db);
    expect(await db.client.ledgerEntry.count({ where: { approvalRequestId: request.id } })).toBe(1);
    expect(await db.client.outboxMessage.count({ where: { approvalRequestId: request.id } })).toBe(1);
    expect(await db.client.ticket.findUniqueOrThrow({ where: { id: request.ticketId } })).toMatchObject({ status: "resolved" });
  });

  it("executes a refund auto-approved within the dial: a recorded system approval and exactly one ledger row", async () => {
    const db = testDb();
    const admin = await user(db.client, "ADMIN");
    await updatePolicySettings({ changes: { "autonomy.autoApproveLimitCents": 10_000 }, actor: admin });
    try {
      const tId = await tabletTicket(await freshOrder());
      const run = await runAgent({ ticketId: tId });
      expect(run).toMatchObject({ status: "auto_approved", reason: "refund_auto_approved" });
      const approval = await db.client.approvalRequest.findFirstOrThrow({ where: { ticketId: tId }, include: { decisions: true } });
      expect(approval).toMatchObject({ kind: "refund", status: "approved" });
      expect(approval.decisions).toHaveLength(1);
      expect(approval.decisions[0]).toMatchObject({ automatic: true, deciderId: null, decision: "approve" });
      await drainQueue(db);
      expect(await db.client.ledgerEntry.count({ where: { approvalRequestId: approval.id } })).toBe(1);
      expect(await db.client.ticket.findUniqueOrThrow({ where: { id: tId } })).toMatchObject({ status: "resolved" });
    } finally {
      await updatePolicySettings({ changes: { "autonomy.autoApproveLimitCents": 0 }, actor: admin });
    }
  });
});

describe("one ticket lifecycle", () => {
  it("hands a rejected ticket back to a person, who can then answer it by hand", async () => {
    const db = testDb();
    const request = await pendingApproval(db.client, "demo-flagged-account");
    const reviewer = await user(db.client, "REVIEWER");
    await decideApproval({
      approvalId: request.id,
      decision: "reject",
      digest: request.digest,
      note: "Ask for photos first.",
      actor: reviewer,
    });
    expect(await db.client.ticket.findUniqueOrThrow({ where: { id: request.ticketId } })).toMatchObject({
      status: "needs_human",
      reason: "approval_rejected",
    });
    await resolveByHand({ ticketId: request.ticketId, reply: "Could you send us photos of the damage?", actor: reviewer });
    expect(await db.client.ticket.findUniqueOrThrow({ where: { id: request.ticketId } })).toMatchObject({ status: "resolved" });
    expect(await db.client.outboxMessage.count({ where: { ticketId: request.ticketId } })).toBe(1);
  });

  it("refuses live runs on a resolved ticket, for every caller", async () => {
    const db = testDb();
    const tId = await ticketId(db.client, "demo-flagged-account");
    expect(await refusalCode(runAgent({ ticketId: tId }))).toBe("ticket_resolved");
    expect((await runAgent({ ticketId: tId, mode: "simulate" })).mode).toBe("simulate");
  });

  it("lets a new live run supersede the older pending request, which is then refused in words", async () => {
    const db = testDb();
    const tId = await tabletTicket(await freshOrder());
    const first = await runAgent({ ticketId: tId });
    const second = await runAgent({ ticketId: tId });
    expect(await db.client.approvalRequest.count({ where: { ticketId: tId, status: "pending" } })).toBe(1);
    const old = await db.client.approvalRequest.findUniqueOrThrow({ where: { id: first.approval!.id! } });
    expect(old.status).toBe("superseded");
    expect(
      await refusalCode(
        decideApproval({ approvalId: old.id, decision: "approve", digest: old.digest, actor: await user(db.client, "REVIEWER") }),
      ),
    ).toBe("superseded");
    expect((await db.client.approvalRequest.findUniqueOrThrow({ where: { id: second.approval!.id! } })).status).toBe("pending");
  });
});

describe("expired requests", () => {
  it("are marked expired by the sweep, audited, and refused in words", async () => {
    const db = testDb();
    const request = await approvalFor(await tabletTicket(await freshOrder()));
    const later = new Date(request.expiresAt.getTime() + 1_000);
    expect(await expirePendingApprovals({ now: request.createdAt })).toEqual({ expired: 0 });
    // Every request pending from earlier tests in this database is due by then too.
    const due = await db.client.approvalRequest.count({ where: { status: "pending", expiresAt: { lt: later } } });
    expect(due).toBeGreaterThanOrEqual(1);
    expect(await expirePendingApprovals({ now: later })).toEqual({ expired: due });
    expect(await expirePendingApprovals({ now: later })).toEqual({ expired: 0 });
    expect((await db.client.approvalRequest.findUniqueOrThrow({ where: { id: request.id } })).status).toBe("expired");
    expect(await db.client.auditEvent.count({ where: { action: "approval.expired", subjectId: request.id } })).toBe(1);
    expect(
      await refusalCode(
        decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, actor: await user(db.client, "REVIEWER") }),
      ),
    ).toBe("expired");
  });
});

describe.runIf(onPostgres)("under concurrency and crashes (PostgreSQL)", () => {
  it("keeps one pending approval when two live runs start on one ticket at once", async () => {
    const db = testDb();
    const world = await freshOrder();
    const tId = await tabletTicket(world);
    const { customerId } = await db.client.order.findUniqueOrThrow({ where: { id: world.orderId } });
    // Both runs start while the test holds the customer's proposal lock (lib/orders/refund-facts.ts),
    // so the one that gets the ticket cannot finish before the other has started, however fast it is.
    let runs: Promise<string>[] = [];
    const firstSettled = await db.client.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtext(${`refund-proposals:${customerId}`}))::text`;
        runs = [refusalCode(runAgent({ ticketId: tId })), refusalCode(runAgent({ ticketId: tId }))];
        return Promise.race(runs);
      },
      { timeout: 30_000 },
    );
    expect(firstSettled).toBe("ticket_busy");
    expect((await Promise.all(runs)).sort()).toEqual(["accepted", "ticket_busy"]);
    expect(await db.client.approvalRequest.count({ where: { ticketId: tId, status: "pending" } })).toBe(1);
    expect(await db.client.agentRun.count({ where: { ticketId: tId, mode: "live" } })).toBe(1);
  });

  it("counts 8 concurrent runs for one customer against a limit of 3: 3 proposals", async () => {
    const db = testDb();
    const world = await freshOrder();
    const tickets = await Promise.all(Array.from({ length: 8 }, () => tabletTicket(world)));
    expect(await db.client.refundProposal.count({ where: { orderId: world.orderId } })).toBe(0);
    const runs = await Promise.all(tickets.map((t) => runAgent({ ticketId: t })));
    const proposals = runs.filter((r) => r.proposal && r.proposal.decision !== "denied");
    expect(proposals).toHaveLength(3);
    expect(runs.filter((r) => r.proposal?.reasons.includes("customer_rate_limited"))).toHaveLength(5);
  });

  it("lets resolve-by-hand and a live run race: one winner, and nothing approvable on a resolved ticket", async () => {
    const db = testDb();
    const reviewer = await user(db.client, "REVIEWER");
    const winners: string[] = [];
    for (let i = 0; i < 8; i++) {
      const tId = await tabletTicket(await freshOrder());
      const [run, resolved] = await Promise.all([
        refusalCode(runAgent({ ticketId: tId })),
        refusalCode(resolveByHand({ ticketId: tId, reply: "We are on it.", actor: reviewer })),
      ]);
      winners.push(`${run}/${resolved}`);
      const ticket = await db.client.ticket.findUniqueOrThrow({ where: { id: tId } });
      const pending = await db.client.approvalRequest.count({ where: { ticketId: tId, status: "pending" } });
      if (ticket.status === "resolved") {
        expect(resolved).toBe("accepted");
        expect(pending).toBe(0);
      } else {
        expect(run).toBe("accepted");
        expect(resolved).not.toBe("accepted");
      }
      expect([run, resolved].filter((c) => c === "accepted")).toHaveLength(1);
    }
    expect(winners.length).toBe(8);
  });

  it("executes, after a crash between the decision and the execution, the refund once", async () => {
    const db = testDb();
    const request = await approvalFor(await tabletTicket(await freshOrder()));
    const reviewer = await user(db.client, "REVIEWER");
    const order = (request.operation as { proposal: { orderId: string } }).proposal.orderId;
    // Hold the order's row lock, so an executor running right after the decision would wait on it,
    // and kill the deciding process as soon as its decision is committed.
    const { PrismaClient } = await import("../../generated/prisma/client");
    const { PrismaPg } = await import("@prisma/adapter-pg");
    const holder = new PrismaClient({ adapter: new PrismaPg({ connectionString: db.url!, max: 1 }) });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const locking = holder.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT id FROM "Order" WHERE id = ${order} FOR UPDATE`;
        await held;
      },
      { timeout: 60_000 },
    );
    const child = spawnTs("testing/decide-then-hang.ts", [db.url!, request.id, request.digest, reviewer.id, reviewer.role]);
    for (let i = 0; i < 300 && !(await db.client.approvalDecision.count({ where: { approvalRequestId: request.id } })); i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(await db.client.approvalDecision.count({ where: { approvalRequestId: request.id } })).toBe(1);
    await killHard(child);
    release();
    await locking;
    await holder.$disconnect();
    expect(await db.client.ledgerEntry.count({ where: { approvalRequestId: request.id } })).toBe(0);

    // A worker starts afterwards (the server restarted): the refund is executed, once.
    await drainQueue(db);
    expect(await db.client.ledgerEntry.count({ where: { approvalRequestId: request.id } })).toBe(1);
    expect(await db.client.outboxMessage.count({ where: { approvalRequestId: request.id } })).toBe(1);
  }, 60_000);
});
