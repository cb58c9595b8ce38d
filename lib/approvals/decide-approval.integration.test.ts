import { describe, expect, it } from "vitest";
import { insertSignedDecision } from "../../testing/decisions";
import { useTestDb } from "../../testing/db";
import { drainQueue } from "../../testing/queue";
import { approvalFor, freshOrder, pendingApproval, tabletTicket, user } from "../../testing/runs";
import { createTicket } from "../intake/create-ticket";
import { seedDemo } from "../../prisma/seed/demo";
import { updatePolicySettings } from "../policy/update-settings";
import { decideApproval } from "./decide-approval";
import { refusalCode } from "../../testing/refusals";
import { customerReply } from "../contracts/customer-reply";
import { AppError } from "../contracts/app-error";
import { commitment } from "../contracts/commitment";
import { verifyAuditChain } from "../audit/verify-audit-chain";
import { holdTicketStream } from "../../testing/audit";

const testDb = useTestDb(seedDemo);

/** A fresh order's full refund, proposed by the rule planner and waiting for its decision. */
async function refundRequest() {
  const { client } = testDb();
  return approvalFor(client, await tabletTicket(client, await freshOrder(client)));
}

/** A question about a fresh order: the rule planner answers it with a reply that waits for a person. */
async function replyRequest() {
  const { client } = testDb();
  const world = await freshOrder(client);
  const input = {
    subject: "How long does a refund take?",
    body: "If my refund is approved, how long until I see the money?",
    customerEmail: world.email,
    orderRef: world.orderId,
    source: "form",
  } as const;
  const ticket = await client.$transaction((tx) => createTicket(input, { type: "system" }, tx));
  const request = await approvalFor(client, ticket.id);
  expect(request.kind).toBe("reply");
  return request;
}

const jobOf = (approvalId: string) =>
  testDb().client.$queryRawUnsafe<{ name: string }[]>(`SELECT name FROM pgboss.job WHERE id = $1::uuid`, approvalId);

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
    expect(result).toMatchObject({ decision: "approve", approvals: 1, approvalsRequired: 1 });
    expect(
      await client.auditEvent.findMany({ where: { action: "approval.approved", actorId: reviewer.id, subjectId: request.id } }),
    ).toMatchObject([{ inputs: { kind: "refund", approvals: 1, approvalsRequired: 1, replyEdited: false } }]);
    expect(await client.auditEvent.count({ where: { action: "refund.executed", subjectId: request.id, actorType: "system" } })).toBe(1);

    // A second decision – a double click, a resubmitted form – is refused, and moves nothing.
    expect(
      await refusalCode(decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, actor: reviewer })),
    ).toBe("already_decided");
    expect(await client.ledgerEntry.count({ where: { approvalRequestId: request.id } })).toBe(1);
  });

  it("needs a note to reject, stores the rejection and writes no ledger row", async () => {
    const { client } = testDb();
    const request = await pendingApproval(client, "demo-flagged-account");
    const reviewer = await user(client, "REVIEWER");
    await expect(
      decideApproval({ approvalId: request.id, decision: "reject", digest: request.digest, actor: reviewer }),
    ).rejects.toMatchObject({ code: "note_required", message: "Say why you reject it: a note is required." });
    const result = await decideApproval({
      approvalId: request.id,
      decision: "reject",
      digest: request.digest,
      note: "Flagged account: ask for photos first.",
      actor: reviewer,
    });
    expect(result.refundJobEnqueued).toBe(false);
    expect(await client.ledgerEntry.count({ where: { approvalRequestId: request.id } })).toBe(0);
    expect(await client.approvalDecision.findFirstOrThrow({ where: { approvalRequestId: request.id } })).toMatchObject({
      decision: "reject",
      note: "Flagged account: ask for photos first.",
    });
    // The request itself is rejected, not approved: the executor and the pages read its status.
    expect((await client.approvalRequest.findUniqueOrThrow({ where: { id: request.id } })).status).toBe("rejected");
  });

  it("lets only a specialist approve the 650 USD laptop refund, and no lead at all", async () => {
    const { client } = testDb();
    const request = await pendingApproval(client, "demo-large-laptop-refund");
    expect(request.requiredRole).toBe("SPECIALIST");
    const attempt = async (role: "REVIEWER" | "LEAD" | "SPECIALIST") =>
      refusalCode(decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, actor: await user(client, role) }));
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
    await decideApproval({
      approvalId: request.id,
      decision: "approve",
      digest: request.digest,
      editedReply: edited,
      actor: await user(client, "REVIEWER"),
    });
    expect(await client.approvalDecision.findFirstOrThrow({ where: { approvalRequestId: request.id } })).toMatchObject({
      originalReply: request.draft,
      editedReply: edited,
    });
    expect((await client.outboxMessage.findFirstOrThrow({ where: { approvalRequestId: request.id } })).body).toBe(customerReply(edited));
    expect(
      (await client.auditEvent.findFirstOrThrow({ where: { action: "approval.approved", subjectId: request.id } })).inputs,
    ).toMatchObject({ replyEdited: true });
  });

  it("refuses a reply, edited or lowered with it, that states an amount other than the refund, naming the sentence; nothing is written", async () => {
    const { client } = testDb();
    const reviewer = await user(client, "REVIEWER");
    const request = await approvalFor(client, await tabletTicket(client, await freshOrder(client)));
    const before = { requests: await client.approvalRequest.count(), audit: await client.auditEvent.count() };
    await expect(
      decideApproval({
        approvalId: request.id,
        decision: "approve",
        digest: request.digest,
        editedReply: "Thank you for your patience. We have refunded 5,000.00 USD.",
        actor: reviewer,
      }),
    ).rejects.toMatchObject({
      code: "reply_contradicts_operation",
      field: "editedReply",
      message:
        "The reply states an amount other than the refund being made (79.00 USD): “We have refunded 5,000.00 USD.” Write the refund's amount, or take the amount out.",
    });
    // Lowered to 50.00 with a reply still saying 79.00: refused before any new request is made.
    await expect(
      decideApproval({
        approvalId: request.id,
        decision: "approve",
        digest: request.digest,
        amountCents: 5_000,
        editedReply: "We have refunded 79.00 USD.",
        actor: reviewer,
      }),
    ).rejects.toMatchObject({
      code: "reply_contradicts_operation",
      field: "editedReply",
      message: expect.stringContaining("“We have refunded 79.00 USD.”"),
    });
    expect(await client.approvalRequest.count()).toBe(before.requests);
    expect(await client.auditEvent.count()).toBe(before.audit);
    expect(await client.approvalDecision.count({ where: { approvalRequestId: request.id } })).toBe(0);
    expect(await client.outboxMessage.count({ where: { ticketId: request.ticketId } })).toBe(0);
    // The refund's own amount goes through.
    await decideApproval({
      approvalId: request.id,
      decision: "approve",
      digest: request.digest,
      editedReply: "Thank you for your patience. We have refunded 79.00 USD.",
      actor: reviewer,
    });
    await drainQueue(testDb());
    expect((await client.outboxMessage.findFirstOrThrow({ where: { approvalRequestId: request.id } })).body).toContain("79.00 USD");
  });

  it("refuses, on a reply-only request, an edited reply promising a refund that is not being made", async () => {
    const { client } = testDb();
    const request = await replyRequest();
    await expect(
      decideApproval({
        approvalId: request.id,
        decision: "approve",
        digest: request.digest,
        editedReply: `${request.draft}\n\nWe have refunded your order in full.`,
        actor: await user(client, "REVIEWER"),
      }),
    ).rejects.toMatchObject({
      code: "reply_contradicts_operation",
      field: "editedReply",
      message: expect.stringContaining("“We have refunded your order in full.”"),
    });
    expect(await client.approvalDecision.count({ where: { approvalRequestId: request.id } })).toBe(0);
  });

  it("releases an approved reply at once and resolves its ticket; no refund job", async () => {
    const { client } = testDb();
    const request = await replyRequest();
    const reviewer = await user(client, "REVIEWER");
    const result = await decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, actor: reviewer });
    expect(result).toEqual({
      approvalId: request.id,
      ticketId: request.ticketId,
      decisionId: expect.any(String),
      decision: "approve",
      refundJobEnqueued: false,
      approvals: 1,
      approvalsRequired: 1,
    });
    expect(await client.approvalDecision.findFirstOrThrow({ where: { approvalRequestId: request.id } })).toMatchObject({
      id: result.decisionId,
      decision: "approve",
      deciderId: reviewer.id,
      deciderRole: "REVIEWER",
      digest: request.digest,
      note: null,
      editedReply: null,
    });
    expect((await client.outboxMessage.findMany({ where: { approvalRequestId: request.id } })).map((m) => m.body)).toEqual([
      customerReply(request.draft!),
    ]);
    expect(await client.ticket.findUniqueOrThrow({ where: { id: request.ticketId } })).toMatchObject({ status: "resolved", reason: null });
    expect(await jobOf(request.id)).toEqual([]);
    expect(await client.auditEvent.findFirstOrThrow({ where: { action: "approval.approved", subjectId: request.id } })).toMatchObject({
      actorType: "user",
      actorId: reviewer.id,
      subjectType: "approval",
      ticketId: request.ticketId,
      inputs: { kind: "reply", digest: request.digest, role: "REVIEWER", note: null, replyEdited: false },
    });
  });

  it("releases nothing for a rejected reply, and refuses an amount sent with it", async () => {
    const { client } = testDb();
    const request = await replyRequest();
    const reviewer = await user(client, "REVIEWER");
    const reject = (extra: { amountCents?: number } = {}) =>
      decideApproval({
        approvalId: request.id,
        decision: "reject",
        digest: request.digest,
        note: "Not what they asked.",
        actor: reviewer,
        ...extra,
      });
    await expect(reject({ amountCents: 100 })).rejects.toMatchObject({
      code: "amount_not_lowered",
      message: "Only an approval may change the amount; reject the request as it is.",
    });
    expect(await reject()).toMatchObject({ decision: "reject", refundJobEnqueued: false, approvals: 0 });
    expect(await client.outboxMessage.count({ where: { approvalRequestId: request.id } })).toBe(0);
    expect(await client.ticket.findUniqueOrThrow({ where: { id: request.ticketId } })).toMatchObject({
      status: "needs_human",
      reason: "approval_rejected",
    });
  });

  it("holds an approved refund's reply for the executor: the ticket is approved, the job enqueued, no reply yet", async () => {
    const { client } = testDb();
    const request = await refundRequest();
    const result = await decideApproval({
      approvalId: request.id,
      decision: "approve",
      digest: request.digest,
      actor: await user(client, "REVIEWER"),
    });
    expect(result).toMatchObject({ decision: "approve", refundJobEnqueued: true });
    expect(await client.ticket.findUniqueOrThrow({ where: { id: request.ticketId } })).toMatchObject({ status: "approved" });
    expect(await client.outboxMessage.count({ where: { approvalRequestId: request.id } })).toBe(0);
    expect(await jobOf(request.id)).toHaveLength(1);
    expect(await client.approvalRequest.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({ status: "approved" });
  });

  it("hands a rejected refund back to a person: no job, no reply, no refund; the note is kept trimmed", async () => {
    const { client } = testDb();
    const request = await refundRequest();
    const reviewer = await user(client, "REVIEWER");
    expect(
      await refusalCode(
        decideApproval({ approvalId: request.id, decision: "reject", digest: request.digest, note: "   ", actor: reviewer }),
      ),
    ).toBe("note_required");
    const result = await decideApproval({
      approvalId: request.id,
      decision: "reject",
      digest: request.digest,
      note: "  Ask for a photo first.  ",
      actor: reviewer,
    });
    expect(result).toMatchObject({ decision: "reject", refundJobEnqueued: false, approvals: 0, approvalsRequired: 1 });
    expect(await client.approvalDecision.findFirstOrThrow({ where: { approvalRequestId: request.id } })).toMatchObject({
      decision: "reject",
      note: "Ask for a photo first.",
    });
    expect(await client.ticket.findUniqueOrThrow({ where: { id: request.ticketId } })).toMatchObject({
      status: "needs_human",
      reason: "approval_rejected",
    });
    expect(await jobOf(request.id)).toEqual([]);
    await drainQueue(testDb());
    expect(await client.outboxMessage.count({ where: { approvalRequestId: request.id } })).toBe(0);
    expect(await client.ledgerEntry.count({ where: { approvalRequestId: request.id } })).toBe(0);
    // The chain holds the note's commitment under the customer's salt, never its words.
    const { customerEmail } = await client.ticket.findUniqueOrThrow({ where: { id: request.ticketId } });
    const { salt } = await client.customer.findUniqueOrThrow({ where: { email: customerEmail } });
    expect(await client.auditEvent.findFirstOrThrow({ where: { action: "approval.rejected", subjectId: request.id } })).toMatchObject({
      inputs: { kind: "refund", note: commitment(salt!, "Ask for a photo first."), approvals: 0, approvalsRequired: 1 },
    });
    expect(await client.auditEvent.count({ where: { action: "approval.approved", subjectId: request.id } })).toBe(0);
  });

  it("refuses a request it cannot find, one a newer run superseded, one already expired, and one already decided", async () => {
    const { client } = testDb();
    const reviewer = await user(client, "REVIEWER");
    const decide = (request: { id: string; digest: string }) =>
      decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, actor: reviewer });
    const notFound = { code: "not_found", message: "This approval request does not exist." };
    await expect(decide({ id: "not-an-approval", digest: "0".repeat(64) })).rejects.toMatchObject(notFound);
    await expect(decide({ id: `x${(await refundRequest()).id}`, digest: "0".repeat(64) })).rejects.toMatchObject(notFound);
    await expect(decide({ id: "00000000-0000-4000-8000-000000000000", digest: "0".repeat(64) })).rejects.toMatchObject(notFound);

    const superseded = await refundRequest();
    await client.approvalRequest.update({ where: { id: superseded.id }, data: { status: "superseded" } });
    await expect(decide(superseded)).rejects.toMatchObject({
      code: "superseded",
      message: "A newer run of the agent replaced this request. Review the newest one on the ticket.",
    });

    const expired = await refundRequest();
    await client.approvalRequest.update({ where: { id: expired.id }, data: { status: "expired" } });
    await expect(decide(expired)).rejects.toMatchObject({
      code: "expired",
      message: `This request expired at ${expired.expiresAt.toISOString()}. Run the agent again for a fresh one.`,
    });

    // Decided is said before anything else about the request, even once its time has run out: an
    // approved request, and a decision on record though the request still reads pending.
    const alreadyDecided = { code: "already_decided", message: "This request has already been decided." };
    const approved = await refundRequest();
    await decide(approved);
    const late = new Date(approved.expiresAt.getTime() + 60_000);
    await expect(
      decideApproval({ approvalId: approved.id, decision: "approve", digest: approved.digest, actor: reviewer, now: late }),
    ).rejects.toMatchObject(alreadyDecided);
    const recorded = await refundRequest();
    await insertSignedDecision(client, {
      approvalRequestId: recorded.id,
      deciderId: reviewer.id,
      deciderRole: "REVIEWER",
      digest: recorded.digest,
    });
    await expect(decide(recorded)).rejects.toMatchObject(alreadyDecided);
    await expect(
      decideApproval({
        approvalId: recorded.id,
        decision: "approve",
        digest: recorded.digest,
        actor: reviewer,
        now: new Date(recorded.expiresAt.getTime() + 60_000),
      }),
    ).rejects.toMatchObject(alreadyDecided);
    // And a request no longer pending, though no decision is on record.
    const closed = await refundRequest();
    await client.approvalRequest.update({ where: { id: closed.id }, data: { status: "rejected" } });
    await expect(
      decideApproval({
        approvalId: closed.id,
        decision: "approve",
        digest: closed.digest,
        actor: reviewer,
        now: new Date(closed.expiresAt.getTime() + 60_000),
      }),
    ).rejects.toMatchObject(alreadyDecided);
    expect(
      await client.approvalDecision.count({ where: { approvalRequestId: { in: [superseded.id, expired.id, recorded.id, closed.id] } } }),
    ).toBe(1);
  });

  it("says why a role may not decide: a lead decides nothing, a reviewer not a specialist's refund", async () => {
    const { client } = testDb();
    const request = await refundRequest();
    await client.approvalRequest.update({ where: { id: request.id }, data: { requiredRole: "SPECIALIST" } });
    const as = async (role: "LEAD" | "REVIEWER") =>
      decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, actor: await user(client, role) });
    await expect(as("LEAD")).rejects.toMatchObject({ code: "role_insufficient", message: "Leads cannot approve or reject requests." });
    await expect(as("REVIEWER")).rejects.toMatchObject({
      code: "role_insufficient",
      message: "This refund needs a specialist to decide it.",
    });
  });

  it("decides up to the moment a request expires, and reads the clock when no time is given", async () => {
    const { client } = testDb();
    const reviewer = await user(client, "REVIEWER");
    const atExpiry = await refundRequest();
    expect(
      await refusalCode(
        decideApproval({ approvalId: atExpiry.id, decision: "approve", digest: atExpiry.digest, actor: reviewer, now: atExpiry.expiresAt }),
      ),
    ).toBe("accepted");

    const past = await refundRequest();
    const expiresAt = new Date(Date.now() - 60_000);
    await client.approvalRequest.update({ where: { id: past.id }, data: { expiresAt } });
    await expect(decideApproval({ approvalId: past.id, decision: "approve", digest: past.digest, actor: reviewer })).rejects.toMatchObject({
      code: "expired",
      message: `This request expired at ${expiresAt.toISOString()}. Run the agent again for a fresh one.`,
    });
    expect(await client.approvalRequest.findUniqueOrThrow({ where: { id: past.id } })).toMatchObject({ status: "pending" });
  });

  it("lets a database error that is no refusal reach the caller as it is, writing nothing", async () => {
    const { client } = testDb();
    const request = await refundRequest();
    // PostgreSQL text holds no NUL character: the statement fails, not any check before it.
    const failed = await decideApproval({
      approvalId: request.id,
      decision: "reject",
      digest: request.digest,
      note: "see\u0000this",
      actor: await user(client, "REVIEWER"),
    }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(Error);
    expect(failed).not.toBeInstanceOf(AppError);
    expect(failed).not.toBeInstanceOf(TypeError);
    expect(await client.approvalRequest.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({ status: "pending" });
    expect(await client.auditEvent.count({ where: { subjectId: request.id, action: "approval.rejected" } })).toBe(0);
  });

  it("takes one of two decisions sent at once; the other finds the request decided", async () => {
    const { client } = testDb();
    const request = await refundRequest();
    const reviewer = await user(client, "REVIEWER");
    const both = await Promise.allSettled(
      (["approve", "reject"] as const).map((decision) =>
        decideApproval({ approvalId: request.id, decision, digest: request.digest, note: "both at once", actor: reviewer }),
      ),
    );
    expect(both.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(both.find((r) => r.status === "rejected")).toMatchObject({
      reason: { code: "already_decided", message: "This request has already been decided." },
    });
    expect(await client.approvalDecision.count({ where: { approvalRequestId: request.id } })).toBe(1);
    expect(
      await client.auditEvent.count({ where: { subjectId: request.id, action: { in: ["approval.approved", "approval.rejected"] } } }),
    ).toBe(1);
  });

  it("does not count a reply sent back untouched from a browser (CRLF line endings) as edited", async () => {
    const { client } = testDb();
    const request = await approvalFor(client, await tabletTicket(client, await freshOrder(client)));
    const reviewer = await user(client, "REVIEWER");
    await decideApproval({
      approvalId: request.id,
      decision: "approve",
      digest: request.digest,
      editedReply: request.draft!.replaceAll("\n", "\r\n"),
      actor: reviewer,
    });
    await drainQueue(testDb());
    expect(await client.approvalDecision.findFirstOrThrow({ where: { approvalRequestId: request.id } })).toMatchObject({
      originalReply: request.draft,
      editedReply: null,
    });
    const event = await client.auditEvent.findFirstOrThrow({ where: { action: "approval.approved", subjectId: request.id } });
    expect(event.inputs).toMatchObject({ replyEdited: false });
    const body = (await client.outboxMessage.findFirstOrThrow({ where: { approvalRequestId: request.id } })).body;
    expect(body).toBe(customerReply(request.draft!));
    expect(body).not.toMatch(/\r|\[[a-z0-9-]+@\d+\]/);
  });

  it("refuses a request whose ticket moved on outside the lifecycle: resolved is already_decided, running is ticket_busy; nothing is written", async () => {
    const { client } = testDb();
    const reviewer = await user(client, "REVIEWER");
    for (const [status, code] of [
      ["resolved", "already_decided"],
      ["running", "ticket_busy"],
    ] as const) {
      const request = await approvalFor(client, await tabletTicket(client, await freshOrder(client)));
      await client.$executeRaw`UPDATE "Ticket" SET "status" = ${status}::"TicketStatus" WHERE id = ${request.ticketId}::uuid`;
      expect(
        await refusalCode(decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, actor: reviewer })),
      ).toBe(code);
      expect(await client.approvalDecision.count({ where: { approvalRequestId: request.id } })).toBe(0);
      expect(await client.approvalRequest.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({ status: "pending" });
      expect(await client.ticket.findUniqueOrThrow({ where: { id: request.ticketId } })).toMatchObject({ status });
      // The refusal is raised by the statement that wrote the event first: the event went with it.
      expect(
        await client.auditEvent.count({ where: { subjectId: request.id, action: { in: ["approval.approved", "approval.rejected"] } } }),
      ).toBe(0);
      expect(await client.$queryRawUnsafe(`SELECT id FROM pgboss.job WHERE id = $1::uuid`, request.id)).toEqual([]);
    }
  });

  it.runIf(!!process.env.DATABASE_URL)(
    "lets two reviewers who both passed the checks race: one decision, its event and its job; the other refused, leaving nothing (PostgreSQL)",
    async () => {
      const { client } = testDb();
      const reviewer = await user(client, "REVIEWER");
      const request = await approvalFor(client, await tabletTicket(client, await freshOrder(client)));
      // Both callers read the request as pending; the ticket's stream is held meanwhile, so both wait
      // at their audit event and the second writes its event before it finds the request decided.
      const stream = await holdTicketStream(client, request.ticketId);
      const decisions = [0, 1].map(() =>
        refusalCode(decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, actor: reviewer })),
      );
      const waiting = async () =>
        (
          await client.$queryRaw<
            { n: number }[]
          >`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`
        )[0]!.n;
      for (let i = 0; i < 200 && (await waiting()) < 2; i++) await new Promise((r) => setTimeout(r, 25));
      expect(await waiting()).toBe(2);
      await stream.release();
      expect((await Promise.all(decisions)).sort()).toEqual(["accepted", "already_decided"]);
      expect(await client.approvalDecision.count({ where: { approvalRequestId: request.id } })).toBe(1);
      expect(await client.auditEvent.count({ where: { subjectId: request.id, action: "approval.approved" } })).toBe(1);
      expect(await client.$queryRawUnsafe(`SELECT state::text FROM pgboss.job WHERE id = $1::uuid`, request.id)).toEqual([
        { state: "created" },
      ]);
      // Whole, apart from the decision an earlier test of this file wrote by hand with no event.
      const { problems } = await verifyAuditChain(client, { publicKey: null });
      expect(problems.filter((p) => p.kind !== "decision_without_event" || p.approvalRequestId === request.id)).toEqual([]);
    },
  );

  it("refuses a request made stale by a policy change, an expired one, and a digest the person never saw", async () => {
    const { client } = testDb();
    const reviewer = await user(client, "REVIEWER");
    const admin = await user(client, "ADMIN");
    const stale = await approvalFor(client, await tabletTicket(client, await freshOrder(client)));
    await updatePolicySettings({ changes: { "policy.dailyCapCents": 40_000 }, actor: admin });
    await expect(
      decideApproval({ approvalId: stale.id, decision: "approve", digest: stale.digest, actor: reviewer }),
    ).rejects.toMatchObject({
      code: "stale",
      message:
        "The policy, intake bundle or agent changed since this request was made (a setting, a policy document published or retired, a new release). Run the agent again for a fresh one.",
    });

    const fresh = await approvalFor(client, await tabletTicket(client, await freshOrder(client)));
    await expect(
      decideApproval({ approvalId: fresh.id, decision: "approve", digest: "0".repeat(64), actor: reviewer }),
    ).rejects.toMatchObject({
      code: "operation_changed",
      message: "The request changed since you opened it. Reload the ticket and review it again.",
    });
    const later = new Date(fresh.expiresAt.getTime() + 1000);
    expect(
      await refusalCode(decideApproval({ approvalId: fresh.id, decision: "approve", digest: fresh.digest, actor: reviewer, now: later })),
    ).toBe("expired");
    expect(await client.ledgerEntry.count({ where: { approvalRequestId: { in: [stale.id, fresh.id] } } })).toBe(0);
  });
});
