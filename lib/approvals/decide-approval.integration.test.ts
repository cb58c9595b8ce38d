import { beforeAll, describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { drainQueue } from "../../testing/queue";
import { approvalFor, freshOrder, pendingApproval, tabletTicket, user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { updatePolicySettings } from "../policy/update-settings";
import { decideApproval } from "./decide-approval";
import { refusalCode } from "../../testing/refusals";
import { customerReply } from "../contracts/customer-reply";
import { verifyAuditChain } from "../audit/verify-audit-chain";
import { auditStream } from "../audit/record-audit-event";

const testDb = useTestDb();
beforeAll(async () => void (await seedDemo(testDb().client)));


describe("decideApproval", () => {
  it("approves the tablet refund once: one ledger row, an outbox reply, audited with the user's id", async () => {
    const { client } = testDb();
    const request = await pendingApproval(client, "demo-cracked-tablet");
    const reviewer = await user(client, "REVIEWER");
    const result = await decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, actor: reviewer });
    expect(result.refundJobEnqueued).toBe(true);
    await drainQueue(testDb());
    const ledger = await client.ledgerEntry.findMany({ where: { approvalRequestId: request.id } });
    expect(ledger).toMatchObject([{ amountCents: 7900, orderId: "ORD-1001" }]);
    const [sent] = await client.outboxMessage.findMany({ where: { approvalRequestId: request.id } });
    // The customer reads the reply as sent after the refund: no citation tokens, no "once approved".
    expect(request.draft).toMatch(/\[[a-z0-9-]+@\d+\]/);
    expect(sent!.body).toBe(customerReply(request.draft!));
    expect(sent!.body).not.toMatch(/\[[a-z0-9-]+@\d+\]|approved it|\r/);
    expect(await client.auditEvent.count({ where: { action: "approval.approved", actorId: reviewer.id, subjectId: request.id } })).toBe(1);
    expect(await client.auditEvent.count({ where: { action: "refund.executed", subjectId: request.id, actorType: "system" } })).toBe(1);

    // A second decision – a double click, a resubmitted form – is refused, and moves nothing.
    expect(await refusalCode(decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, actor: reviewer }))).toBe("already_decided");
    expect(await client.ledgerEntry.count({ where: { approvalRequestId: request.id } })).toBe(1);
  });

  it("needs a note to reject, stores the rejection and writes no ledger row", async () => {
    const { client } = testDb();
    const request = await pendingApproval(client, "demo-flagged-account");
    const reviewer = await user(client, "REVIEWER");
    expect(await refusalCode(decideApproval({ approvalId: request.id, decision: "reject", digest: request.digest, actor: reviewer }))).toBe("note_required");
    const result = await decideApproval({ approvalId: request.id, decision: "reject", digest: request.digest, note: "Flagged account: ask for photos first.", actor: reviewer });
    expect(result.refundJobEnqueued).toBe(false);
    expect(await client.ledgerEntry.count({ where: { approvalRequestId: request.id } })).toBe(0);
    expect(await client.approvalDecision.findUniqueOrThrow({ where: { approvalRequestId: request.id } })).toMatchObject({ decision: "reject", note: "Flagged account: ask for photos first." });
    // The request itself is rejected, not approved: the executor and the pages read its status.
    expect((await client.approvalRequest.findUniqueOrThrow({ where: { id: request.id } })).status).toBe("rejected");
  });

  it("lets only a specialist approve the 650 USD laptop refund, and no lead at all", async () => {
    const { client } = testDb();
    const request = await pendingApproval(client, "demo-large-laptop-refund");
    expect(request.requiredRole).toBe("SPECIALIST");
    const attempt = async (role: "REVIEWER" | "LEAD" | "SPECIALIST") => refusalCode(decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, actor: await user(client, role) }));
    expect(await attempt("REVIEWER")).toBe("role_insufficient");
    expect(await attempt("LEAD")).toBe("role_insufficient");
    expect(await client.ledgerEntry.count({ where: { approvalRequestId: request.id } })).toBe(0);
    expect(await attempt("SPECIALIST")).toBe("accepted");
    await drainQueue(testDb());
    expect(await client.ledgerEntry.findFirstOrThrow({ where: { approvalRequestId: request.id } })).toMatchObject({ amountCents: 65000 });
  });

  it("stores an edited reply beside the original", async () => {
    const { client } = testDb();
    const request = await pendingApproval(client, "demo-sla-question");
    const edited = `${request.draft}\n\nP.S. We have also sent a prepaid label.`;
    await decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, editedReply: edited, actor: await user(client, "REVIEWER") });
    expect(await client.approvalDecision.findUniqueOrThrow({ where: { approvalRequestId: request.id } })).toMatchObject({ originalReply: request.draft, editedReply: edited });
    expect((await client.outboxMessage.findFirstOrThrow({ where: { approvalRequestId: request.id } })).body).toBe(customerReply(edited));
  });

  it("does not count a reply sent back untouched from a browser (CRLF line endings) as edited", async () => {
    const { client } = testDb();
    const request = await approvalFor(client, await tabletTicket(client, await freshOrder(client)));
    const reviewer = await user(client, "REVIEWER");
    await decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, editedReply: request.draft!.replaceAll("\n", "\r\n"), actor: reviewer });
    await drainQueue(testDb());
    expect(await client.approvalDecision.findUniqueOrThrow({ where: { approvalRequestId: request.id } })).toMatchObject({ originalReply: request.draft, editedReply: null });
    const event = await client.auditEvent.findFirstOrThrow({ where: { action: "approval.approved", subjectId: request.id } });
    expect(event.inputs).toMatchObject({ replyEdited: false });
    const body = (await client.outboxMessage.findFirstOrThrow({ where: { approvalRequestId: request.id } })).body;
    expect(body).toBe(customerReply(request.draft!));
    expect(body).not.toMatch(/\r|\[[a-z0-9-]+@\d+\]/);
  });

  it("refuses a request whose ticket moved on outside the lifecycle: resolved is already_decided, running is ticket_busy; nothing is written", async () => {
    const { client } = testDb();
    const reviewer = await user(client, "REVIEWER");
    for (const [status, code] of [["resolved", "already_decided"], ["running", "ticket_busy"]] as const) {
      const request = await approvalFor(client, await tabletTicket(client, await freshOrder(client)));
      await client.$executeRaw`UPDATE "Ticket" SET "status" = ${status}::"TicketStatus" WHERE id = ${request.ticketId}::uuid`;
      expect(await refusalCode(decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, actor: reviewer }))).toBe(code);
      expect(await client.approvalDecision.count({ where: { approvalRequestId: request.id } })).toBe(0);
      expect(await client.approvalRequest.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({ status: "pending" });
      expect(await client.ticket.findUniqueOrThrow({ where: { id: request.ticketId } })).toMatchObject({ status });
      // The refusal is raised by the statement that wrote the event first: the event went with it.
      expect(await client.auditEvent.count({ where: { subjectId: request.id, action: { in: ["approval.approved", "approval.rejected"] } } })).toBe(0);
      expect(await client.$queryRawUnsafe(`SELECT id FROM pgboss.job WHERE id = $1::uuid`, request.id)).toEqual([]);
    }
  });

  it.runIf(!!process.env.DATABASE_URL)("lets two reviewers who both passed the checks race: one decision, its event and its job; the other refused, leaving nothing (PostgreSQL)", async () => {
    const { client } = testDb();
    const reviewer = await user(client, "REVIEWER");
    const request = await approvalFor(client, await tabletTicket(client, await freshOrder(client)));
    // Both callers read the request as pending; the ticket's stream is held meanwhile, so both wait
    // at their audit event and the second writes its event before it finds the request decided.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const holding = new Promise<void>((r) => (locked = r));
    const holder = client.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT "stream" FROM "AuditStream" WHERE "stream" = ${auditStream({ ticketId: request.ticketId, subjectType: "ticket", subjectId: request.ticketId })} FOR UPDATE`;
      locked();
      await held;
    }, { timeout: 30_000 });
    await holding;
    const decisions = [0, 1].map(() => refusalCode(decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, actor: reviewer })));
    const waiting = async () => (await client.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)[0]!.n;
    for (let i = 0; i < 200 && (await waiting()) < 2; i++) await new Promise((r) => setTimeout(r, 25));
    expect(await waiting()).toBe(2);
    release();
    await holder;
    expect((await Promise.all(decisions)).sort()).toEqual(["accepted", "already_decided"]);
    expect(await client.approvalDecision.count({ where: { approvalRequestId: request.id } })).toBe(1);
    expect(await client.auditEvent.count({ where: { subjectId: request.id, action: "approval.approved" } })).toBe(1);
    expect(await client.$queryRawUnsafe(`SELECT state::text FROM pgboss.job WHERE id = $1::uuid`, request.id)).toEqual([{ state: "created" }]);
    expect((await verifyAuditChain(client, { publicKey: null })).ok).toBe(true);
  });

  it("refuses a request made stale by a policy change, an expired one, and a digest the person never saw", async () => {
    const { client } = testDb();
    const reviewer = await user(client, "REVIEWER");
    const admin = await user(client, "ADMIN");
    const stale = await approvalFor(client, await tabletTicket(client, await freshOrder(client)));
    await updatePolicySettings({ changes: { "policy.dailyCapCents": 40_000 }, actor: admin });
    expect(await refusalCode(decideApproval({ approvalId: stale.id, decision: "approve", digest: stale.digest, actor: reviewer }))).toBe("stale");

    const fresh = await approvalFor(client, await tabletTicket(client, await freshOrder(client)));
    expect(await refusalCode(decideApproval({ approvalId: fresh.id, decision: "approve", digest: "0".repeat(64), actor: reviewer }))).toBe("operation_changed");
    const later = new Date(fresh.expiresAt.getTime() + 1000);
    expect(await refusalCode(decideApproval({ approvalId: fresh.id, decision: "approve", digest: fresh.digest, actor: reviewer, now: later }))).toBe("expired");
    expect(await client.ledgerEntry.count({ where: { approvalRequestId: { in: [stale.id, fresh.id] } } })).toBe(0);
  });
});
