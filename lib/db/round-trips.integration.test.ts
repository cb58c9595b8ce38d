// The write paths' round-trip budgets. A round trip is every statement the driver sends (BEGIN,
// COMMIT and job enqueues included), counted at the driver (see round-trips.ts), so the counts are
// exact on both databases. Raise a budget only with its reason in the same commit.
import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { approvalFor, freshOrder, tabletTicket, user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { runAgent } from "../agent/run-agent";
import { decideApproval } from "../approvals/decide-approval";
import { intakeBundleKey } from "../env";
import { helpdeskLimiter } from "../intake/rate-limits";
import { receiveIntake } from "../intake/receive-intake";
import { signWebhook } from "../intake/webhook-signature";
import { signRoute } from "../intake/route-signature";
import { executeApprovedRefund } from "../ledger/execute-approved-refund";

export const ROUND_TRIP_BUDGETS = {
  /** The approval with its decisions, proposal and order, then one statement that is its own
   * transaction (no BEGIN or COMMIT): the order's lock and, under it, the refunds so far with the audit
   * event and the ledger row (countersign_write_refund). */
  executor: 2,
  /** Approve, the executor not counted (it runs later, in the refund job): the request, then one
   * statement that is its own transaction (no BEGIN or COMMIT): the event, the decision, the ticket's
   * move and the refund job. */
  decide: 2,
  /** runAgent on the cracked-tablet path: a draft and a refund proposal stopped at its approval. */
  runAgent: 20,
  /** A new ticket through the intake API: the rate limiter's two counters (the key's and the
   * address's, sent at once: one round trip of latency on PostgreSQL), then the ticket with its audit
   * event in one statement. */
  intake: 3,
};

const testDb = useTestDb(seedDemo);

async function roundTrips<T>(work: () => Promise<T>): Promise<{ result: T; trips: number }> {
  const counter = testDb().roundTrips;
  const before = counter.count;
  const result = await work();
  return { result, trips: counter.count - before };
}

describe("round trips per operation", () => {
  it(`runAgent on the cracked-tablet path takes at most ${ROUND_TRIP_BUDGETS.runAgent}`, async () => {
    const { client } = testDb();
    const ticketId = await tabletTicket(client, await freshOrder(client));
    const { result, trips } = await roundTrips(() => runAgent({ ticketId, client }));
    expect(result).toMatchObject({ status: "needs_human", reason: "draft_ready_for_review", approval: { kind: "refund" } });
    console.info(`runAgent: ${trips} round trips`);
    expect(trips).toBeLessThanOrEqual(ROUND_TRIP_BUDGETS.runAgent);
  });

  it(`decide (approve) takes at most ${ROUND_TRIP_BUDGETS.decide}, and the executor at most ${ROUND_TRIP_BUDGETS.executor} per refund`, async () => {
    const { client } = testDb();
    const request = await approvalFor(client, await tabletTicket(client, await freshOrder(client)));
    const reviewer = await user(client, "REVIEWER");
    const decided = await roundTrips(() =>
      decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, actor: reviewer, client }),
    );
    expect(decided.result).toMatchObject({ decision: "approve", refundJobEnqueued: true });
    const executed = await roundTrips(() =>
      executeApprovedRefund({ approvalId: request.id, actor: { type: "system", id: "refund-job" }, client }),
    );
    expect(executed.result).toMatchObject({ outcome: "refund_created" });
    console.info(`decide: ${decided.trips} round trips, executor: ${executed.trips}`);
    expect(decided.trips).toBeLessThanOrEqual(ROUND_TRIP_BUDGETS.decide);
    expect(executed.trips).toBeLessThanOrEqual(ROUND_TRIP_BUDGETS.executor);
  });

  it(`a new ticket through intake takes at most ${ROUND_TRIP_BUDGETS.intake}`, async () => {
    const secret = "round-trip-intake-secret-0123456789abcdef";
    const route = { ticketId: "rt-1", route: "guarded_agent" as const, bundleVersion: "intake-rules-2026.11" };
    const raw = Buffer.from(
      JSON.stringify({
        externalId: "rt-1",
        subject: "Tablet arrived cracked",
        body: "The screen is cracked. Can I get a refund?",
        customerEmail: "dana.whitfield@example.net",
        orderId: "ORD-1001",
        route: route.route,
        bundleVersion: route.bundleVersion,
        routeSignature: signRoute(route, intakeBundleKey()),
      }),
    );
    const headers = new Headers({
      "content-type": "application/json",
      ...signWebhook({ secret, id: "msg_rt_1", timestamp: new Date(), payload: raw.toString() }),
    });
    const limiter = helpdeskLimiter("intake", { perKey: 600, perAddress: 600, windowSeconds: 60 });
    const config = { secrets: [secret], toleranceSeconds: 300, legacyUntil: null, limiter };
    const { result, trips } = await roundTrips(() => receiveIntake({ rawBody: raw, headers, address: "192.0.2.1" }, config));
    expect(result.status).toBe(201);
    console.info(`intake: ${trips} round trips`);
    expect(trips).toBeLessThanOrEqual(ROUND_TRIP_BUDGETS.intake);
  });
});
