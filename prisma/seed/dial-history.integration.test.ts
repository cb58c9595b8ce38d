// The demo's six weeks of decided refunds: evidence the dial reads exactly as it reads a team's own
// (a lead may raise it to 50 USD and is refused at 100), history the audit check accepts as it would
// the product's own writes, and nothing left for a worker to execute or reconcile.
import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { refusalCode } from "../../testing/refusals";
import { user } from "../../testing/runs";
import { verifyAuditChain } from "../../lib/audit/verify-audit-chain";
import { loadDialStatus } from "../../lib/eval/dial-status";
import { setAutonomyLimit } from "../../lib/eval/shadow";
import { HISTORY_AGREEING, HISTORY_REJECTED } from "./dial-history";
import { seedDemoWithHistory } from "./demo";

const testDb = useTestDb(seedDemoWithHistory);

describe("the demo's history", () => {
  it("gives the dial enough agreement to rise to 50 USD, and a disagreement at 100 USD and above", async () => {
    const status = await loadDialStatus();
    const at = (cents: number) => status.candidates.find((c) => c.limitCents === cents)!;
    expect(at(5_000)).toMatchObject({ agreed: HISTORY_AGREEING, disagreed: 0, verdict: "allowed" });
    expect(at(10_000)).toMatchObject({ agreed: HISTORY_AGREEING, disagreed: HISTORY_REJECTED, verdict: "disputed" });
    expect(at(2_500).verdict).toBe("short");
    expect(status.shadowedProposals).toBe(HISTORY_AGREEING + HISTORY_REJECTED);

    const lead = await user(testDb().client, "LEAD");
    expect(await refusalCode(setAutonomyLimit({ limitCents: 10_000, actor: lead }))).toBe("insufficient_evidence");
    await setAutonomyLimit({ limitCents: 5_000, actor: lead });
    expect((await loadDialStatus()).limitCents).toBe(5_000);
  });

  it("verifies as the product's own writes: each decision signed and audited, each ledger row with its execution", async () => {
    const report = await verifyAuditChain(testDb().client, { publicKey: null });
    expect(report.problems).toEqual([]);
    expect(report.decisions).toBeGreaterThanOrEqual(HISTORY_AGREEING + HISTORY_REJECTED);
    const { client } = testDb();
    expect(await client.ledgerEntry.count({ where: { orderId: { startsWith: "ORD-H" } } })).toBe(HISTORY_AGREEING);
  });

  it("leaves no approved refund unsettled and nothing waiting on a person from before yesterday but the rejections", async () => {
    const { client } = testDb();
    const history = { externalId: { startsWith: "history-" } };
    expect(await client.approvalRequest.count({ where: { ticket: history, status: "approved", executionOutcome: null } })).toBe(0);
    expect(await client.approvalRequest.count({ where: { ticket: history, status: "pending" } })).toBe(0);
    expect(await client.ticket.count({ where: { ...history, status: "needs_human" } })).toBe(HISTORY_REJECTED);
    expect(await client.ticket.count({ where: { ...history, status: "resolved" } })).toBe(HISTORY_AGREEING);
  });

  it("is written once: a second seed adds nothing", async () => {
    const { client } = testDb();
    const before = await client.auditEvent.count();
    expect(await seedDemoWithHistory(client)).toMatch(/, 0 decided refunds of the last six weeks$/);
    expect(await client.auditEvent.count()).toBe(before);
  });
});
