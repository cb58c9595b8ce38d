// The two-person rule and a person's lowered amount, on the real agent, decision, queue and executor.
// The crash case needs real PostgreSQL (a child process killed with SIGKILL); it runs when
// DATABASE_URL is set, as in CI.
import { describe, expect, it } from "vitest";
import { insertSignedDecision } from "../../testing/decisions";
import { signDecision } from "../audit/decision-signature";
import { asOwner, useTestDb } from "../../testing/db";
import { killHard, spawnTs } from "../../testing/spawn-ts";
import { drainQueue, openJobs } from "../../testing/queue";
import { freshOrder, newUser, tabletTicket, user } from "../../testing/runs";
import { refusalCode } from "../../testing/refusals";
import { seedDemo } from "../../prisma/seed/demo";
import { runAgent } from "../agent/run-agent";
import { decideApproval } from "./decide-approval";
import { editRefundAmount } from "./edit-approval";
import { reconcileApprovedRefunds } from "./reconcile-refunds";
import { settleApprovedRefund } from "./settle-refund";
import { executeApprovedRefund } from "../ledger/execute-approved-refund";
import { holdTicketStream } from "../../testing/audit";

const testDb = useTestDb(seedDemo);
const onPostgres = !!process.env.DATABASE_URL;

/** A pending request for a refund of `amountCents` on a fresh order, from a run `starter` started. */
async function requestFor(amountCents: number, starter?: { id: string }) {
  const { client } = testDb();
  const ticketId = await tabletTicket(client, await freshOrder(client, amountCents));
  const run = await runAgent({ ticketId, client, startedBy: starter?.id });
  if (!run.approval?.id) throw new Error(`run stopped with ${run.status}/${run.reason}`);
  return client.approvalRequest.findUniqueOrThrow({ where: { id: run.approval.id }, include: { proposal: true } });
}

const ledgerRows = (approvalRequestId: string) => testDb().client.ledgerEntry.findMany({ where: { approvalRequestId } });
const approve = (
  request: { id: string; digest: string },
  actor: { id: string; role: "REVIEWER" | "SPECIALIST" | "LEAD" | "ADMIN" },
  extra: { amountCents?: number; editedReply?: string } = {},
) => decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, actor, ...extra });

describe("the two-person rule", () => {
  it("asks two different people for a 1,200 USD refund; the first approval moves nothing, the second executes it", async () => {
    const { client } = testDb();
    const reviewer = await user(client, "REVIEWER");
    const [specialist, admin] = [await user(client, "SPECIALIST"), await user(client, "ADMIN")];
    const request = await requestFor(120_000, reviewer);
    expect(request).toMatchObject({ approvalsRequired: 2, requiredRole: "SPECIALIST", status: "pending" });
    const waiting = (await client.ticket.findUniqueOrThrow({ where: { id: request.ticketId } })).status;
    expect(request.proposal!.decisionReasons).toContain("two_person_required");

    const first = await approve(request, specialist);
    expect(first).toMatchObject({ approvals: 1, approvalsRequired: 2, refundJobEnqueued: false });
    expect(await openJobs(testDb())).toBe(0);
    expect(await client.approvalRequest.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({ status: "pending" });
    expect((await client.ticket.findUniqueOrThrow({ where: { id: request.ticketId } })).status).toBe(waiting);
    expect(
      (await client.auditEvent.findFirstOrThrow({ where: { action: "approval.approved", subjectId: request.id } })).inputs,
    ).toMatchObject({ approvals: 1, approvalsRequired: 2 });

    // The same person twice, and a reviewer below the role, are refused; nothing is written.
    await expect(approve(request, specialist)).rejects.toMatchObject({
      code: "second_approver_required",
      message: "You gave the first approval: the second must come from a different person.",
    });
    expect(await refusalCode(approve(request, reviewer))).toBe("role_insufficient");
    expect(await client.approvalDecision.count({ where: { approvalRequestId: request.id } })).toBe(1);
    await drainQueue(testDb());
    expect(await ledgerRows(request.id)).toHaveLength(0);

    const second = await approve(request, admin);
    expect(second).toMatchObject({ approvals: 2, approvalsRequired: 2, refundJobEnqueued: true });
    await drainQueue(testDb());
    expect((await ledgerRows(request.id)).map((r) => r.amountCents)).toEqual([120_000]);
  });

  it("refuses the person who started the run, for either approval; a rejection by anyone ends the request", async () => {
    const { client } = testDb();
    const specialist = await user(client, "SPECIALIST");
    const request = await requestFor(120_000, specialist);
    await expect(approve(request, specialist)).rejects.toMatchObject({
      code: "run_starter_excluded",
      message: "You started the agent's run: this two-person refund needs approvals from two other people.",
    });
    const admin = await user(client, "ADMIN");
    await approve(request, admin);
    const rejected = await decideApproval({
      approvalId: request.id,
      decision: "reject",
      digest: request.digest,
      note: "The photo shows no damage.",
      actor: specialist,
    });
    expect(rejected).toMatchObject({ decision: "reject", refundJobEnqueued: false });
    expect(await client.approvalRequest.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({ status: "rejected" });
    expect(await refusalCode(approve(request, await user(client, "SPECIALIST")))).toBe("already_decided");
  });

  it("ends with a rejection given first, and lets the starter of a one-person refund's run approve it", async () => {
    const { client } = testDb();
    const reviewer = await user(client, "REVIEWER");
    const request = await requestFor(120_000, reviewer);
    const rejected = await decideApproval({
      approvalId: request.id,
      decision: "reject",
      digest: request.digest,
      note: "No damage in the photo.",
      actor: await user(client, "SPECIALIST"),
    });
    expect(rejected).toMatchObject({ approvals: 0, approvalsRequired: 2, refundJobEnqueued: false });
    expect(await client.approvalRequest.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({ status: "rejected" });
    expect(await client.ticket.findUniqueOrThrow({ where: { id: request.ticketId } })).toMatchObject({
      status: "needs_human",
      reason: "approval_rejected",
    });
    expect(await refusalCode(approve(request, await user(client, "ADMIN")))).toBe("already_decided");

    const small = await requestFor(7_900, reviewer);
    expect(small.approvalsRequired).toBe(1);
    expect(await approve(small, reviewer)).toMatchObject({ approvals: 1, approvalsRequired: 1, refundJobEnqueued: true });
  });

  it("is kept by the database whoever writes: at most N seats, one per person, never the starter, never a system approval", async () => {
    const { client } = testDb();
    const reviewer = await user(client, "REVIEWER");
    const [specialist, admin] = [await user(client, "SPECIALIST"), await user(client, "ADMIN")];
    const request = await requestFor(120_000, reviewer);
    const row = (fields: { seat: number; deciderId: string | null; automatic?: boolean }) =>
      insertSignedDecision(client, { approvalRequestId: request.id, deciderRole: "SPECIALIST", digest: request.digest, ...fields });
    await expect(row({ seat: 1, deciderId: reviewer.id })).rejects.toThrow(/other than the run's starter/);
    await expect(row({ seat: 1, deciderId: null, automatic: true })).rejects.toThrow(/other than the run's starter/);
    await row({ seat: 1, deciderId: specialist.id });
    await expect(row({ seat: 2, deciderId: specialist.id })).rejects.toThrow(/Unique constraint/i);
    await expect(row({ seat: 3, deciderId: admin.id })).rejects.toThrow(/seat 3 is not one of them|ApprovalDecision_seat_check/);

    // A request forced to "approved" with one approval (as someone holding the database could): the
    // executor counts the approvals itself and writes nothing.
    await asOwner(testDb(), (owner) => owner.$executeRaw`UPDATE "ApprovalRequest" SET status = 'approved' WHERE id = ${request.id}::uuid`);
    const result = await executeApprovedRefund({ approvalId: request.id, actor: { type: "system", id: "test" } });
    expect(result).toMatchObject({ outcome: "blocked:not_approved", detail: "the request has 1 of 2 approvals" });
    expect(await ledgerRows(request.id)).toHaveLength(0);
    await asOwner(testDb(), (owner) => owner.$executeRaw`UPDATE "ApprovalRequest" SET status = 'pending' WHERE id = ${request.id}::uuid`);
  });

  it("writes nothing for a request with one of two approvals, through the queue: reconciliation and a replayed job alike", async () => {
    const { client } = testDb();
    const reviewer = await user(client, "REVIEWER");
    const request = await requestFor(120_000, reviewer);
    await approve(request, await user(client, "SPECIALIST"));
    expect((await reconcileApprovedRefunds({ client, olderThanMs: -60_000 })).reenqueued).not.toContain(request.id);
    // The refund job as a replay or a forged enqueue would run it: refused, audited, no ledger row.
    const settled = await settleApprovedRefund({ approvalId: request.id, client });
    expect(settled.outcome).toBe("blocked:not_approved");
    expect(await ledgerRows(request.id)).toHaveLength(0);
  });

  it("executes only when both decisions are approvals by two people other than the starter, made on the request's digest and before it expired", async () => {
    const { client } = testDb();
    const reviewer = await user(client, "REVIEWER");
    // Both approvals given; then the second rewritten past the database's triggers, as someone holding
    // the database could: made by the starter, by the system, a rejection, on another digest, or
    // after the request's expiry. Such a row no longer verifies; re-signed (as someone holding the
    // signing key too could), the executor's own rules still refuse it.
    const twice = async (forge: (request: { id: string; expiresAt: Date }) => string, resign = true) => {
      const request = await requestFor(120_000, reviewer);
      await approve(request, await user(client, "SPECIALIST"));
      await approve(request, await user(client, "ADMIN"));
      await asOwner(testDb(), (owner) =>
        owner.$transaction(async (tx) => {
          await tx.$executeRawUnsafe("SET LOCAL session_replication_role = replica");
          await tx.$executeRawUnsafe(
            `UPDATE "ApprovalDecision" SET ${forge(request)} WHERE "approvalRequestId" = $1::uuid AND "seat" = 2`,
            request.id,
          );
        }),
      );
      if (resign) await resignSeat(request.id, 2);
      return { request, result: await executeApprovedRefund({ approvalId: request.id, actor: { type: "system", id: "test" } }) };
    };
    const notTwoPeople = {
      outcome: "blocked:not_approved",
      detail: "a two-person refund needs two different people, neither of them the run's starter nor whoever lowered it",
    };
    expect((await twice(() => `"deciderId" = '${reviewer.id}'::uuid`, false)).result).toMatchObject({
      outcome: "blocked:not_approved",
      detail: "the decision in seat 2 has a bad signature: its signature does not verify",
    });
    expect((await twice(() => `"deciderId" = '${reviewer.id}'::uuid`)).result).toMatchObject(notTwoPeople);
    expect((await twice(() => `"deciderId" = NULL, "automatic" = true`)).result).toMatchObject(notTwoPeople);
    expect((await twice(() => `"automatic" = true`)).result).toMatchObject(notTwoPeople);
    expect((await twice(() => `"decision" = 'reject'`)).result).toMatchObject({
      outcome: "blocked:not_approved",
      detail: "the request has not been approved",
    });
    const otherDigest = await twice(() => `"digest" = '${"0".repeat(64)}'`);
    expect(otherDigest.result).toMatchObject({ outcome: "blocked:approval_mismatch" });
    const late = await twice((request) => `"createdAt" = '${new Date(request.expiresAt.getTime() + 60_000).toISOString()}'`);
    expect(late.result).toMatchObject({ outcome: "blocked:approval_expired" });
    expect([...(await ledgerRows(otherDigest.request.id)), ...(await ledgerRows(late.request.id))]).toHaveLength(0);
  });

  it.runIf(onPostgres)(
    "tells the second of two people approving at the same moment what happened: the other's approval counted, theirs did not, 1 of 2 (PostgreSQL)",
    async () => {
      const { client } = testDb();
      const reviewer = await user(client, "REVIEWER");
      const [specialist, admin] = [await user(client, "SPECIALIST"), await user(client, "ADMIN")];
      const request = await requestFor(120_000, reviewer);
      // Both read the request with no decision yet; the ticket's audit stream is held meanwhile, so
      // both wait at their audit event, and both take seat 1.
      const stream = await holdTicketStream(client, request.ticketId);
      const answers = [specialist, admin].map((actor) =>
        approve(request, actor).then(
          (result) => ({ actor, result, error: null }),
          (error: unknown) => ({ actor, result: null, error: error as { code: string; message: string } }),
        ),
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
      const settled = await Promise.all(answers);
      const won = settled.find((a) => a.result)!;
      const lost = settled.find((a) => a.error)!;
      expect(won.result).toMatchObject({ approvals: 1, approvalsRequired: 2, refundJobEnqueued: false });
      expect(lost.error).toMatchObject({
        code: "approved_meanwhile",
        message:
          "Another person approved this request at the same moment, and theirs counted as approval 1 of 2: yours was not recorded. " +
          "The request has 1 of 2 approvals and waits for one more; reload the ticket to give it.",
      });
      // What the message says is what the database holds: one approval, the winner's; the request pending.
      expect(await client.approvalDecision.findMany({ where: { approvalRequestId: request.id }, select: { deciderId: true } })).toEqual([
        { deciderId: won.actor.id },
      ]);
      expect(await client.approvalRequest.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({ status: "pending" });
      // And the one refused may give the second approval now.
      expect(await approve(request, lost.actor)).toMatchObject({ approvals: 2, refundJobEnqueued: true });
    },
    60_000,
  );

  it.runIf(onPostgres)(
    "writes nothing after a crash that follows the first of two approvals, even once workers and reconciliation run",
    async () => {
      const db = testDb();
      const reviewer = await user(db.client, "REVIEWER");
      const specialist = await user(db.client, "SPECIALIST");
      const request = await requestFor(120_000, reviewer);
      const child = spawnTs("testing/decide-then-hang.ts", [db.url!, request.id, request.digest, specialist.id, specialist.role]);
      for (let i = 0; i < 300 && !(await db.client.approvalDecision.count({ where: { approvalRequestId: request.id } })); i++)
        await new Promise((r) => setTimeout(r, 50));
      await killHard(child);
      expect(await db.client.approvalDecision.count({ where: { approvalRequestId: request.id } })).toBe(1);
      await reconcileApprovedRefunds({ client: db.client, olderThanMs: -60_000 });
      await drainQueue(db);
      expect(await ledgerRows(request.id)).toHaveLength(0);
      expect(await db.client.approvalRequest.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({
        status: "pending",
        executionOutcome: null,
      });
      // The second person's approval is what executes it, once.
      await approve(request, await user(db.client, "ADMIN"));
      await drainQueue(db);
      expect(await ledgerRows(request.id)).toHaveLength(1);
    },
    60_000,
  );
});

describe("a lowered refund", () => {
  it("is approved as a new request with its own digest: the ledger row is 50.00, the agent's 79.00 kept beside it", async () => {
    const { client } = testDb();
    const reviewer = await user(client, "REVIEWER");
    const request = await requestFor(7_900);
    expect(request.draft).toContain("79.00");
    const result = await approve(request, reviewer, { amountCents: 5_000 });
    expect(result.approvalId).not.toBe(request.id);
    expect(result).toMatchObject({ approvals: 1, approvalsRequired: 1, refundJobEnqueued: true });
    const edited = await client.approvalRequest.findUniqueOrThrow({ where: { id: result.approvalId }, include: { proposal: true } });
    expect(edited).toMatchObject({ editedFromId: request.id, editedById: reviewer.id, status: "approved", requiredRole: "REVIEWER" });
    expect(edited.digest).not.toBe(request.digest);
    expect(edited.proposal).toMatchObject({
      amountCents: 5_000,
      orderId: request.proposal!.orderId,
      currency: request.proposal!.currency,
      reason: request.proposal!.reason,
    });
    // The reply says what is refunded now.
    expect(edited.draft).toContain("50.00");
    expect(edited.draft).not.toContain("79.00");
    expect(await client.approvalRequest.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({ status: "superseded" });
    expect(await client.refundProposal.findUniqueOrThrow({ where: { id: request.proposalId! } })).toMatchObject({ amountCents: 7_900 });
    expect(
      (await client.auditEvent.findFirstOrThrow({ where: { action: "approval.edited", subjectId: request.id } })).inputs,
    ).toMatchObject({ fromCents: 7_900, toCents: 5_000, digest: edited.digest });

    await drainQueue(testDb());
    expect((await ledgerRows(edited.id)).map((r) => r.amountCents)).toEqual([5_000]);
    expect(await ledgerRows(request.id)).toHaveLength(0);
    expect((await client.outboxMessage.findFirstOrThrow({ where: { approvalRequestId: edited.id } })).body).toContain("50.00");
  });

  it("is no edit when it is the amount proposed: the request itself is approved, or rejected", async () => {
    const { client } = testDb();
    const reviewer = await user(client, "REVIEWER");
    const approved = await requestFor(7_900);
    expect(await approve(approved, reviewer, { amountCents: 7_900 })).toMatchObject({
      approvalId: approved.id,
      approvals: 1,
      refundJobEnqueued: true,
    });
    const rejected = await requestFor(7_900);
    expect(
      await decideApproval({
        approvalId: rejected.id,
        decision: "reject",
        digest: rejected.digest,
        note: "Photo first.",
        amountCents: 7_900,
        actor: reviewer,
      }),
    ).toMatchObject({ approvalId: rejected.id, decision: "reject" });
    expect(await client.approvalRequest.count({ where: { editedFromId: { in: [approved.id, rejected.id] } } })).toBe(0);
  });

  it("is refused when raised, zero, or on a reply; nothing is written", async () => {
    const { client } = testDb();
    const reviewer = await user(client, "REVIEWER");
    const request = await requestFor(7_900);
    const before = await client.approvalRequest.count();
    for (const amountCents of [7_901, 0, -100, 12.5])
      expect(await refusalCode(approve(request, reviewer, { amountCents }))).toBe("amount_not_lowered");
    expect(
      await refusalCode(
        decideApproval({
          approvalId: request.id,
          decision: "reject",
          digest: request.digest,
          note: "no",
          amountCents: 5_000,
          actor: reviewer,
        }),
      ),
    ).toBe("amount_not_lowered");
    expect(await client.approvalRequest.count()).toBe(before);
    expect(await client.approvalRequest.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({ status: "pending" });
    // The database holds the rule too: an edited request for more than the original is refused.
    const raised = await client.refundProposal.create({
      data: { ...request.proposal!, id: undefined, amountCents: 9_000, createdAt: undefined },
    });
    await expect(
      client.approvalRequest.create({
        data: {
          ticketId: request.ticketId,
          runId: request.runId,
          proposalId: raised.id,
          kind: "refund",
          digest: "f".repeat(64),
          operation: {},
          policyVersion: request.policyVersion,
          bundleVersion: request.bundleVersion,
          agentVersion: request.agentVersion,
          corpusHash: request.corpusHash,
          requiredRole: "REVIEWER",
          expiresAt: request.expiresAt,
          editedFromId: request.id,
          editedById: reviewer.id,
        },
      }),
    ).rejects.toThrow(/may only lower/);
  });

  it("never asks less than the original: 1,200 lowered to 900 still needs two people and a specialist; approvals given before an edit no longer count", async () => {
    const { client } = testDb();
    const reviewer = await user(client, "REVIEWER");
    const [specialist, admin] = [await user(client, "SPECIALIST"), await user(client, "ADMIN")];
    const big = await requestFor(120_000, reviewer);
    const lowered = await approve(big, specialist, { amountCents: 90_000 });
    // The specialist lowered it: the new request is made, and waits for two other people.
    expect(lowered).toMatchObject({ decisionId: null, approvals: 0, approvalsRequired: 2, refundJobEnqueued: false });
    const loweredRow = await client.approvalRequest.findUniqueOrThrow({ where: { id: lowered.approvalId }, include: { proposal: true } });
    expect(loweredRow).toMatchObject({ approvalsRequired: 2, requiredRole: "SPECIALIST", status: "pending", editedById: specialist.id });
    expect(loweredRow.proposal!.decisionReasons).toContain("two_person_required");
    expect(await client.approvalDecision.count({ where: { approvalRequestId: lowered.approvalId } })).toBe(0);

    const other = await requestFor(120_000, reviewer);
    await approve(other, specialist);
    // The admin lowers it a little: still two people, and the specialist's approval was given to the
    // other digest, so the new request has none yet (and the admin's does not count: they lowered it).
    const edited = await approve(other, admin, { amountCents: 110_000 });
    expect(edited).toMatchObject({ decisionId: null, approvals: 0, approvalsRequired: 2, refundJobEnqueued: false });
    expect(await refusalCode(approve(other, await user(client, "SPECIALIST")))).toBe("superseded");

    // 650 lowered to 400: below the specialist threshold, but the original needed a specialist, so the
    // lowered request does too; a one-person refund's lowerer may approve it.
    const laptop = await requestFor(65_000);
    const forSpecialist = await editRefundAmount({
      approvalId: laptop.id,
      digest: laptop.digest,
      amountCents: 40_000,
      actor: specialist,
      client,
    });
    expect(await client.approvalRequest.findUniqueOrThrow({ where: { id: forSpecialist!.approvalId } })).toMatchObject({
      requiredRole: "SPECIALIST",
      approvalsRequired: 1,
      status: "pending",
    });
    const loweredLaptop = { id: forSpecialist!.approvalId, digest: forSpecialist!.digest };
    expect(await refusalCode(approve(loweredLaptop, reviewer))).toBe("role_insufficient");
    expect((await approve(loweredLaptop, specialist)).refundJobEnqueued).toBe(true);
  });

  it("keeps the two-person rule for one cent off: 1,200 lowered to 999.99 needs two people, neither the one who lowered it", async () => {
    const { client } = testDb();
    const starter = await user(client, "SPECIALIST");
    const [lowerer, admin, second] = [
      await newUser(client, "SPECIALIST"),
      await user(client, "ADMIN"),
      await newUser(client, "SPECIALIST"),
    ];
    const request = await requestFor(120_000, starter);
    // The run's starter may not lower it into something they could approve: refused, nothing written.
    expect(await refusalCode(approve(request, starter, { amountCents: 99_999 }))).toBe("run_starter_excluded");
    expect(await client.approvalRequest.count({ where: { editedFromId: request.id } })).toBe(0);

    const lowered = await approve(request, lowerer, { amountCents: 99_999 });
    expect(lowered).toMatchObject({ decisionId: null, approvals: 0, approvalsRequired: 2, refundJobEnqueued: false });
    const row = await client.approvalRequest.findUniqueOrThrow({ where: { id: lowered.approvalId } });
    expect(row).toMatchObject({ approvalsRequired: 2, requiredRole: "SPECIALIST", status: "pending" });
    const loweredRequest = { id: row.id, digest: row.digest };
    // Neither whoever lowered it nor the run's starter may approve it, first or second.
    await expect(approve(loweredRequest, lowerer)).rejects.toMatchObject({
      code: "run_starter_excluded",
      message: "You lowered this refund: it still needs two people, and the approvals must come from two others.",
    });
    expect(await refusalCode(approve(loweredRequest, starter))).toBe("run_starter_excluded");
    expect(await approve(loweredRequest, admin)).toMatchObject({ approvals: 1, approvalsRequired: 2, refundJobEnqueued: false });
    expect(await refusalCode(approve(loweredRequest, lowerer))).toBe("run_starter_excluded");
    // The database refuses the lowerer's seat too, whoever writes it.
    await expect(
      client.approvalDecision.create({
        data: {
          approvalRequestId: row.id,
          decision: "approve",
          deciderId: lowerer.id,
          deciderRole: "SPECIALIST",
          digest: row.digest,
          seat: 2,
        },
      }),
    ).rejects.toThrow(/other than whoever lowered it/);
    expect(await approve(loweredRequest, second)).toMatchObject({ approvals: 2, refundJobEnqueued: true });
    await drainQueue(testDb());
    expect((await ledgerRows(row.id)).map((r) => r.amountCents)).toEqual([99_999]);
  });

  it("executes no lowered request approved by whoever lowered it, even with its rows written past the database's triggers", async () => {
    const { client } = testDb();
    const reviewer = await user(client, "REVIEWER");
    const [lowerer, admin] = [await user(client, "SPECIALIST"), await user(client, "ADMIN")];
    const forged = async (sql: (request: { id: string; digest: string; approvalsRequired: number }) => string[]) => {
      const request = await requestFor(120_000, reviewer);
      const lowered = await approve(request, lowerer, { amountCents: 99_999 });
      const row = await client.approvalRequest.findUniqueOrThrow({ where: { id: lowered.approvalId } });
      await asOwner(testDb(), (owner) =>
        owner.$transaction(async (tx) => {
          await tx.$executeRawUnsafe("SET LOCAL session_replication_role = replica");
          for (const statement of sql(row)) await tx.$executeRawUnsafe(statement);
        }),
      );
      return { row, result: await executeApprovedRefund({ approvalId: row.id, actor: { type: "system", id: "test" } }) };
    };
    // Signed as the app signs (the forger here holds the key too), so that the rules past the signature are what refuses.
    const decision = (
      row: { id: string; digest: string; approvalsRequired: number },
      seat: number,
      deciderId: string,
      approvalsRequired = row.approvalsRequired,
    ) => {
      const decidedAt = new Date();
      const { signature, keyId } = signDecision({
        approvalRequestId: row.id,
        digest: row.digest,
        decision: "approve",
        deciderId,
        deciderRole: "SPECIALIST",
        automatic: false,
        seat,
        approvalsRequired,
        decidedAt,
      });
      return `INSERT INTO "ApprovalDecision" ("id", "approvalRequestId", "decision", "deciderId", "deciderRole", "digest", "seat", "createdAt", "signature", "keyId") VALUES (gen_random_uuid(), '${row.id}', 'approve', '${deciderId}', 'SPECIALIST', '${row.digest}', ${seat}, '${decidedAt.toISOString()}', '${signature}', '${keyId}')`;
    };
    const approved = (row: { id: string }) => `UPDATE "ApprovalRequest" SET "status" = 'approved' WHERE "id" = '${row.id}'`;
    // The lowerer alone, on a request made to ask for one approval: the original asked two.
    const alone = await forged((row) => [
      `UPDATE "ApprovalRequest" SET "approvalsRequired" = 1 WHERE "id" = '${row.id}'`,
      decision(row, 1, lowerer.id, 1),
      approved(row),
    ]);
    expect(alone.result).toMatchObject({ outcome: "blocked:not_approved", detail: "the request has 1 of 2 approvals" });
    // The lowerer as one of the two.
    const asOne = await forged((row) => [decision(row, 1, admin.id), decision(row, 2, lowerer.id), approved(row)]);
    expect(asOne.result).toMatchObject({
      outcome: "blocked:not_approved",
      detail: "a two-person refund needs two different people, neither of them the run's starter nor whoever lowered it",
    });
    expect([...(await ledgerRows(alone.row.id)), ...(await ledgerRows(asOne.row.id))]).toHaveLength(0);
  });

  it("is executed only as approved: an edited request whose digest is not the approved one is refused", async () => {
    const { client } = testDb();
    const reviewer = await user(client, "REVIEWER");
    const request = await requestFor(7_900);
    const edit = await editRefundAmount({ approvalId: request.id, digest: request.digest, amountCents: 5_000, actor: reviewer, client });
    await approve({ id: edit!.approvalId, digest: edit!.digest }, reviewer);
    // Someone with the database puts the agent's amount back on the approved edit's proposal.
    const editedRow = await client.approvalRequest.findUniqueOrThrow({ where: { id: edit!.approvalId } });
    await asOwner(
      testDb(),
      (owner) => owner.$executeRaw`UPDATE "RefundProposal" SET "amountCents" = 7900 WHERE id = ${editedRow.proposalId}::uuid`,
    );
    const result = await executeApprovedRefund({ approvalId: edit!.approvalId, actor: { type: "system", id: "test" } });
    expect(result).toMatchObject({ outcome: "blocked:approval_mismatch" });
    expect(await ledgerRows(edit!.approvalId)).toHaveLength(0);
  });
});

/** Signs a stored decision again over what it now holds, as someone holding the signing key could (the row rewritten by the owner). */
async function resignSeat(requestId: string, seat: number) {
  const { client } = testDb();
  const d = await client.approvalDecision.findFirstOrThrow({
    where: { approvalRequestId: requestId, seat },
    include: { approvalRequest: true },
  });
  const signed = signDecision({ ...d, approvalsRequired: d.approvalRequest.approvalsRequired, decidedAt: d.createdAt });
  await asOwner(testDb(), (owner) =>
    owner.$transaction(async (tx) => {
      await tx.$executeRawUnsafe("SET LOCAL session_replication_role = replica");
      await tx.$executeRawUnsafe(`UPDATE "ApprovalDecision" SET "signature" = $1 WHERE "id" = $2::uuid`, signed.signature, d.id);
    }),
  );
}
