// The order's row lock in the executor, raced deterministically on PostgreSQL (PGlite runs one call
// at a time, so nothing can race there). One execution writes its refund and holds its transaction
// open; a second execution for the same order must wait for that lock before it counts the refunds,
// and then see the first one. Without the lock it would count none, and the two would refund the
// order twice over.
import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { insertSignedDecision } from "../../testing/decisions";
import { useTestDb } from "../../testing/db";
import { approvalFor, freshOrder, tabletTicket, user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { driverOf } from "../db";
import { updatePolicySettings } from "../policy/update-settings";
import { executeApprovedRefund, executeRefundOn, type TExecutionResult } from "./execute-approved-refund";

const onPostgres = Boolean(process.env.DATABASE_URL);
const testDb = useTestDb();

beforeAll(async () => {
  if (!onPostgres) return;
  await seedDemo(testDb().client);
  await updatePolicySettings({ changes: { "policy.customerRefundsPerDay": 100 }, actor: await user(testDb().client, "ADMIN") });
});

/** Polls until `found` answers true, or gives up after `ms`. */
async function eventually(found: () => Promise<boolean>, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await found()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

describe.skipIf(!onPostgres)("the executor's lock on the order (PostgreSQL)", () => {
  it("makes a second execution for the order wait for the first to commit, then refuses what no longer fits", async () => {
    const { client } = testDb();
    const world = await freshOrder(client, 7_900);
    // Two tickets about one order, each with its own approved full refund: only one can be paid.
    const approvals = [
      await approvalFor(client, await tabletTicket(client, world)),
      await approvalFor(client, await tabletTicket(client, world)),
    ];
    for (const request of approvals) {
      expect(request.proposalId).not.toBeNull();
      const decider = await user(client, request.requiredRole);
      await insertSignedDecision(client, {
        approvalRequestId: request.id,
        deciderId: decider.id,
        deciderRole: decider.role,
        digest: request.digest,
      });
      await client.approvalRequest.update({ where: { id: request.id }, data: { status: "approved" } });
    }
    const actor = { type: "system", id: "test" } as const;

    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let first!: (result: TExecutionResult) => void;
    const firstWritten = new Promise<TExecutionResult>((resolve) => (first = resolve));
    const firstCommitted = driverOf(client).transaction(async (tx) => {
      const result = await executeRefundOn(tx, { approvalId: approvals[0]!.id, actor });
      first(result);
      await held;
      return result;
    });
    expect((await firstWritten).outcome).toBe("refund_created");

    // However the test ends, the first transaction is let go: its refund commits.
    let secondSettled = false;
    let second: Promise<TExecutionResult> | undefined;
    try {
      second = executeApprovedRefund({ approvalId: approvals[1]!.id, actor }).finally(() => (secondSettled = true));
      const watcher = new pg.Client({ connectionString: testDb().ownerUrl ?? testDb().url });
      await watcher.connect();
      try {
        // The second execution's write, the statement that takes the order's lock, waits on a lock.
        const waited = await eventually(async () => {
          const { rows } = await watcher.query(
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%countersign_write_refund%'`,
          );
          return (rows[0] as { n: number }).n > 0 || secondSettled;
        }, 10_000);
        // Had it not waited, it would have settled while the first refund was still uncommitted.
        expect(secondSettled).toBe(false);
        expect(waited).toBe(true);
      } finally {
        await watcher.end();
      }
    } finally {
      release();
    }
    expect((await firstCommitted).outcome).toBe("refund_created");
    expect(await second).toMatchObject({ outcome: "blocked:exceeds_refundable", detail: "7900 of 7900 cents already refunded" });
    const rows = await client.ledgerEntry.findMany({ where: { orderId: world.orderId } });
    expect(rows.map((r) => r.amountCents)).toEqual([7_900]);
  });
});
