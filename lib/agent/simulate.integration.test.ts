import { beforeAll, describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { seedDemo } from "../../prisma/seed/demo";
import { runAgent } from "./run-agent";

const testDb = useTestDb(seedDemo);
let tablet = "";

beforeAll(async () => {
  tablet = (await testDb().client.ticket.findFirstOrThrow({ where: { externalId: "demo-cracked-tablet" } })).id;
});

/** The shape of a value: every key at every depth, with the JSON type of each leaf. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, shape((value as Record<string, unknown>)[k])]),
    );
  return value === null ? "null" : typeof value;
}

describe("simulate mode", () => {
  it("returns the same shape as live mode, and writes no ledger row, approval or ticket change", async () => {
    const { client } = testDb();
    const simulated = await runAgent({ ticketId: tablet, mode: "simulate" });
    expect(await client.ticket.findUniqueOrThrow({ where: { id: tablet } })).toMatchObject({ status: "open" });
    expect(await client.approvalRequest.count()).toBe(0);
    const live = await runAgent({ ticketId: tablet, mode: "live" });

    // Same key structure at every depth (the approval's id is null in simulate: a value, not a key).
    const { approval: sa, ...simRest } = simulated;
    const { approval: la, ...liveRest } = live;
    expect(shape(simRest)).toEqual(shape(liveRest));
    expect(Object.keys(sa!).sort()).toEqual(Object.keys(la!).sort());
    // Same decisions: path, status, reason, citations, draft, proposal decision, digest.
    expect(simulated).toMatchObject({
      mode: "simulate",
      status: live.status,
      reason: live.reason,
      path: live.path,
      citations: live.citations,
      draft: live.draft,
    });
    expect(simulated.proposal).toMatchObject({ decision: live.proposal!.decision, amountCents: live.proposal!.amountCents });
    expect(sa!.digest).toBe(la!.digest);
    expect(sa!.id).toBeNull();

    expect(await client.ledgerEntry.count()).toBe(0);
    expect(await client.approvalRequest.count()).toBe(1);
    expect(await client.refundProposal.count({ where: { simulated: true } })).toBe(1);
  });
});
