// What someone holding the app's database role, but not the signing key, can do to an approval: write
// an "approved" status, a decision row and the ticket's move. None of it moves money: the executor
// refuses the decision, the reconciliation does not hand it to the worker, and `npm run audit:verify`
// names it. On PostgreSQL with two roles (as CI runs it) the forgery is written as the app's own role;
// elsewhere as the only role there is. And a decision made in time is executed whenever the worker
// gets to it.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { drainQueue } from "../../testing/queue";
import { insertSignedDecision } from "../../testing/decisions";
import { approvalFor, freshOrder, tabletTicket, user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { auditVerifyReport } from "../audit/audit-verify-report";
import { executeApprovedRefund } from "../ledger/execute-approved-refund";
import { decideApproval } from "./decide-approval";
import { reconcileApprovedRefunds } from "./reconcile-refunds";

const testDb = useTestDb(seedDemo);
const roleIn = (url: string | undefined) => (url ? decodeURIComponent(new URL(url).username) : "");
const twoRoles =
  !!process.env.DATABASE_URL &&
  !!process.env.MIGRATION_DATABASE_URL &&
  roleIn(process.env.DATABASE_URL) !== roleIn(process.env.MIGRATION_DATABASE_URL);

/** Runs statements as the app's database role (its own connection on PostgreSQL). */
async function asAppRole(statements: (run: (sql: string, ...values: unknown[]) => Promise<unknown>) => Promise<void>) {
  const db = testDb();
  if (!db.url) return statements((sql, ...values) => db.client.$executeRawUnsafe(sql, ...values));
  const app = new pg.Client({ connectionString: db.url });
  await app.connect();
  try {
    if (twoRoles) expect((await app.query<{ role: string }>("SELECT current_user AS role")).rows[0]!.role).toBe(roleIn(db.url));
    await statements((sql, ...values) => app.query(sql, values));
  } finally {
    await app.end();
  }
}

async function verifyLines(): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const file = join(mkdtempSync(join(tmpdir(), "countersign-verify-")), "checkpoints.jsonl");
  const code = await auditVerifyReport(testDb().client, (l) => lines.push(l), { file });
  return { code, lines };
}

describe("an approval forged by someone holding the app's database role", () => {
  it("is neither executed nor re-enqueued, and audit:verify names it and its ledger row", async () => {
    const { client } = testDb();
    // A genuine decision elsewhere: its signature, copied, is the best a forger has.
    const genuine = await approvalFor(client, await tabletTicket(client, await freshOrder(client)));
    const specialist = await user(client, "SPECIALIST");
    await decideApproval({ approvalId: genuine.id, decision: "approve", digest: genuine.digest, actor: specialist });
    await drainQueue(testDb());
    expect(await verifyLines()).toMatchObject({ code: 0 });
    const copied = await client.approvalDecision.findFirstOrThrow({ where: { approvalRequestId: genuine.id } });

    const request = await approvalFor(client, await tabletTicket(client, await freshOrder(client)));
    const insert = `INSERT INTO "ApprovalDecision" ("id", "approvalRequestId", "decision", "deciderId", "deciderRole", "digest", "signature", "keyId")
                    VALUES (gen_random_uuid(), $1::uuid, 'approve', $2::uuid, $3::"Role", $4, $5, $6)`;
    await asAppRole(async (run) => {
      // Unsigned, it is not even stored: the check constraint holds whoever writes.
      await expect(run(insert, request.id, specialist.id, specialist.role, request.digest, null, null)).rejects.toThrow(
        /ApprovalDecision_signed/,
      );
      await run(`UPDATE "ApprovalRequest" SET "status" = 'approved' WHERE "id" = $1::uuid`, request.id);
      await run(insert, request.id, specialist.id, specialist.role, request.digest, copied.signature, copied.keyId);
      await run(`UPDATE "Ticket" SET "status" = 'approved' WHERE "id" = $1::uuid`, request.ticketId);
    });

    // The reconciliation (every minute, in the worker) finds an approved refund with no job: refused, not re-enqueued.
    const logged: string[] = [];
    const reconciled = await reconcileApprovedRefunds({ client, olderThanMs: -60_000, log: (l) => logged.push(l) });
    const why = "the decision in seat 1 has a bad signature: its signature does not verify";
    expect(reconciled.reenqueued).not.toContain(request.id);
    expect(reconciled.refused).toEqual([{ id: request.id, detail: why }]);
    expect(logged.join("\n")).toContain(`not re-enqueued, approval ${request.id}: ${why}`);
    await drainQueue(testDb());
    expect(await client.ledgerEntry.count({ where: { approvalRequestId: request.id } })).toBe(0);
    expect(await client.outboxMessage.count({ where: { approvalRequestId: request.id } })).toBe(0);
    expect(await client.approvalRequest.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({
      executionOutcome: "blocked:not_approved",
    });
    expect(
      await client.auditEvent.findFirstOrThrow({ where: { subjectId: request.id, action: "refund.blocked_not_approved" } }),
    ).toMatchObject({
      inputs: expect.objectContaining({ detail: why }),
    });
    // Called directly, as a replayed or forged job would: the same refusal.
    expect(await executeApprovedRefund({ approvalId: request.id, actor: { type: "system", id: "test" } })).toMatchObject({
      outcome: "blocked:not_approved",
      detail: why,
    });

    // A ledger row written by hand on it, as the role may append one: named too.
    await asAppRole(async (run) => {
      await run(
        `INSERT INTO "LedgerEntry" ("id", "idempotencyKey", "orderId", "approvalRequestId", "amountCents", "currency", "kind", "actorType", "actorId")
         SELECT gen_random_uuid(), 'refund:forged', p."orderId", r."id", p."amountCents", p."currency", 'refund', 'system', 'refund-worker'
         FROM "ApprovalRequest" r JOIN "RefundProposal" p ON p."id" = r."proposalId" WHERE r."id" = $1::uuid`,
        request.id,
      );
    });
    const verified = await verifyLines();
    expect(verified.code).toBe(1);
    const decision = await client.approvalDecision.findFirstOrThrow({ where: { approvalRequestId: request.id } });
    const ledger = await client.ledgerEntry.findFirstOrThrow({ where: { approvalRequestId: request.id } });
    expect(verified.lines).toEqual(
      expect.arrayContaining([
        `- decision ${decision.id} (approval ${request.id}, seat 1) does not verify: its signature does not verify`,
        `- ledger row ${ledger.id} (refund:forged) was written on an approval that does not verify (${request.id}): ${why}`,
      ]),
    );
    // The genuine decision is not among them.
    expect(verified.lines.join("\n")).not.toContain(copied.id);
  });

  it("names a decision that verifies but has no audit event carrying its signature", async () => {
    const { client } = testDb();
    const request = await approvalFor(client, await tabletTicket(client, await freshOrder(client)));
    const reviewer = await user(client, "REVIEWER");
    // Signed by the app's function, but written past the decision's statement: no approval.approved event.
    const decision = await insertSignedDecision(client, {
      approvalRequestId: request.id,
      decision: "reject",
      deciderId: reviewer.id,
      deciderRole: "REVIEWER",
      digest: request.digest,
    });
    expect((await verifyLines()).lines).toContain(
      `- decision ${decision.id} (approval ${request.id}, seat 1, reject) has no audit event carrying its signature`,
    );
  });
});

describe("decided in time means executed", () => {
  it("executes a refund approved 25 s before its expiry though the worker takes it after", async () => {
    const db = testDb();
    const { client } = db;
    const request = await approvalFor(client, await tabletTicket(client, await freshOrder(client)));
    // The request expired 15 s ago; it was approved 25 s before that, and the worker was down since.
    const expiresAt = new Date(Date.now() - 15_000);
    await client.approvalRequest.update({ where: { id: request.id }, data: { expiresAt } });
    const decider = await user(client, request.requiredRole);
    await decideApproval({
      approvalId: request.id,
      decision: "approve",
      digest: request.digest,
      actor: decider,
      now: new Date(expiresAt.getTime() - 25_000),
    });
    await drainQueue(db);
    expect(await client.approvalRequest.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({
      executionOutcome: "refund_created",
    });
    expect(await client.ledgerEntry.count({ where: { approvalRequestId: request.id } })).toBe(1);
    expect(await client.outboxMessage.count({ where: { approvalRequestId: request.id } })).toBe(1);
    expect((await verifyLines()).lines.join("\n")).not.toContain(request.id);
  });
});
