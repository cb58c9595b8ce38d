import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { approvalFor, freshOrder, pendingApproval, tabletTicket, user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { decideApproval } from "../approvals/decide-approval";
import { updatePolicySettings } from "../policy/update-settings";
import { refusalCode } from "../../testing/refusals";
import { loadDialStatus } from "./dial-status";
import { drainQueue } from "../../testing/queue";
import { CANDIDATE_LIMITS_CENTS, setAutonomyLimit, startShadowPass } from "./shadow";

const testDb = useTestDb(seedDemo);

describe("loadDialStatus", () => {
  it("starts at zero with no evidence: every raise is short of agreements", async () => {
    const status = await loadDialStatus();
    expect(status).toMatchObject({ limitCents: 0, requiredAgreements: 200, shadowedProposals: 0 });
    expect(status.policyVersion).toMatch(/^refund-policy-v1\+/);
    expect(status.candidates.map((c) => c.limitCents)).toEqual([...CANDIDATE_LIMITS_CENTS]);
    expect(status.candidates.every((c) => c.verdict === "short" && c.missing === 200 && c.wouldAutoApprove === 0)).toBe(true);
  });

  it("says exactly what setAutonomyLimit would do at each candidate limit", async () => {
    const { client } = testDb();
    const lead = await user(client, "LEAD");
    const tablet = await pendingApproval(client, "demo-cracked-tablet"); // 79 USD
    await pendingApproval(client, "demo-sla-question");
    await startShadowPass({ actor: lead });
    await drainQueue(testDb());
    let status = await loadDialStatus();
    expect(status.shadowedProposals).toBe(1);
    expect(status.candidates.find((c) => c.limitCents === 10_000)).toMatchObject({ wouldAutoApprove: 1, agreed: 0, disagreed: 0, awaiting: 1, verdict: "short", missing: 200 });

    await decideApproval({ approvalId: tablet.id, decision: "approve", digest: tablet.digest, actor: await user(client, "REVIEWER") });
    await updatePolicySettings({ changes: { "autonomy.requiredAgreements": 1 }, actor: await user(client, "ADMIN") });
    status = await loadDialStatus();
    expect(status.candidates.map((c) => [c.limitCents, c.verdict, c.agreed, c.awaiting])).toEqual([
      [2_500, "short", 0, 0],
      [5_000, "short", 0, 0],
      [10_000, "allowed", 1, 0],
      [25_000, "allowed", 1, 0],
      [49_999, "allowed", 1, 0],
    ]);

    // The verdict and the domain function agree, limit by limit (the dial is put back each time).
    for (const c of status.candidates) {
      const result = await refusalCode(setAutonomyLimit({ limitCents: c.limitCents, actor: lead }));
      expect([c.limitCents, result]).toEqual([c.limitCents, c.verdict === "allowed" ? "accepted" : "insufficient_evidence"]);
      await setAutonomyLimit({ limitCents: 0, actor: lead });
    }

    await setAutonomyLimit({ limitCents: 25_000, actor: lead });
    status = await loadDialStatus();
    expect(status.limitCents).toBe(25_000);
    expect(status.candidates.map((c) => c.verdict)).toEqual(["lower", "lower", "lower", "current", "allowed"]);

    // A person disagreeing at 499.99 USD disputes that level: a 400 USD refund, shadowed, then rejected.
    const large = await approvalFor(client, await tabletTicket(client, await freshOrder(client, 40_000)));
    await startShadowPass({ actor: lead });
    await drainQueue(testDb());
    await decideApproval({ approvalId: large.id, decision: "reject", note: "Ask for photos first.", digest: large.digest, actor: await user(client, "REVIEWER") });
    status = await loadDialStatus();
    expect(status.candidates.at(-1)).toMatchObject({ verdict: "disputed", agreed: 1, disagreed: 1, missing: 0 });
    expect(await refusalCode(setAutonomyLimit({ limitCents: 49_999, actor: lead }))).toBe("insufficient_evidence");
  });
});
