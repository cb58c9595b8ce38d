import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { approvalFor, freshOrder, pendingApproval, tabletTicket, user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { decideApproval } from "../approvals/decide-approval";
import { loadPolicySettings } from "../policy/settings";
import { updatePolicySettings } from "../policy/update-settings";
import { refusalCode } from "../../testing/refusals";
import { drainQueue } from "../../testing/queue";
import { batchProgress } from "../agent/batches";
import { dialEvidence, setAutonomyLimit, startShadowPass } from "./shadow";

const testDb = useTestDb(seedDemo);

describe("shadow evidence and the autonomy dial", () => {
  it("records what the policy would auto-approve at each candidate limit, and the person's decision beside it", async () => {
    const { client } = testDb();
    const tablet = await pendingApproval(client, "demo-cracked-tablet"); // 79 USD
    await pendingApproval(client, "demo-large-laptop-refund"); // 650 USD: never auto-approvable
    const lead = await user(client, "LEAD");

    // The pass is a batch of simulate runs that the job queue works through.
    const pass = await startShadowPass({ actor: lead });
    expect(pass.ticketsConsidered).toBe(2);
    expect(await batchProgress(pass.batchId!, client)).toMatchObject({ total: 2, queued: 2, finished: false });
    await drainQueue(testDb());
    expect(await batchProgress(pass.batchId!, client)).toMatchObject({ total: 2, done: 2, queued: 0, finished: true });
    expect(await client.shadowDecision.count()).toBe(10);
    expect(await client.approvalRequest.count({ where: { status: "pending" } })).toBe(2); // simulate changed nothing
    expect(await client.ledgerEntry.count()).toBe(0);

    const before = await dialEvidence(client);
    expect(before.map((e) => [e.limitCents, e.wouldAutoApprove, e.agreed])).toEqual([
      [2500, 0, 0],
      [5000, 0, 0],
      [10000, 1, 0],
      [25000, 1, 0],
      [49999, 1, 0],
    ]);

    await decideApproval({ approvalId: tablet.id, decision: "approve", digest: tablet.digest, actor: await user(client, "REVIEWER") });
    const after = await dialEvidence(client);
    expect(after.find((e) => e.limitCents === 10000)).toEqual({ limitCents: 10000, wouldAutoApprove: 1, agreed: 1, disagreed: 0 });
    // A second pass does not count the same ticket twice.
    expect(await startShadowPass({ actor: lead })).toEqual({ ticketsConsidered: 0, batchId: null });
  });

  it("refuses to raise the dial without the required agreeing decisions, and audits what it allows", async () => {
    const { client } = testDb();
    const lead = await user(client, "LEAD");
    const admin = await user(client, "ADMIN");
    expect(await refusalCode(setAutonomyLimit({ limitCents: 10000, actor: lead }))).toBe("insufficient_evidence");
    expect((await loadPolicySettings(client))["autonomy.autoApproveLimitCents"]).toBe(0);

    await updatePolicySettings({ changes: { "autonomy.requiredAgreements": 1 }, actor: admin });
    expect(await refusalCode(setAutonomyLimit({ limitCents: 10000, actor: await user(client, "REVIEWER") }))).toBe("forbidden");
    expect(await refusalCode(setAutonomyLimit({ limitCents: 7777, actor: lead }))).toBe("invalid");
    expect(await refusalCode(setAutonomyLimit({ limitCents: 10000, actor: lead }))).toBe("accepted");
    expect((await loadPolicySettings(client))["autonomy.autoApproveLimitCents"]).toBe(10000);
    const event = await client.auditEvent.findFirstOrThrow({ where: { action: "settings.changed", actorId: lead.id }, orderBy: { seq: "desc" } });
    expect(event.inputs).toEqual({ before: { "autonomy.autoApproveLimitCents": 0 }, after: { "autonomy.autoApproveLimitCents": 10000 } });
    // Lowering needs no evidence.
    expect(await refusalCode(setAutonomyLimit({ limitCents: 0, actor: lead }))).toBe("accepted");
  });

  it("refuses any raise to a level where a person disagreed", async () => {
    const { client } = testDb();
    const lead = await user(client, "LEAD");
    // A flagged account's refund is never auto-approvable: shadowing and rejecting it adds no disagreement.
    const flagged = await pendingApproval(client, "demo-flagged-account");
    await startShadowPass({ actor: lead });
    await drainQueue(testDb());
    await decideApproval({ approvalId: flagged.id, decision: "reject", note: "Ask for photos first.", digest: flagged.digest, actor: await user(client, "REVIEWER") });
    expect((await dialEvidence(client)).find((e) => e.limitCents === 10000)).toMatchObject({ agreed: 1, disagreed: 0 });

    // A person rejecting a refund the policy would have auto-approved at 100 USD: the level is disputed.
    const tablet = await approvalFor(client, await tabletTicket(client, await freshOrder(client))); // 79 USD
    await startShadowPass({ actor: lead });
    await drainQueue(testDb());
    await decideApproval({ approvalId: tablet.id, decision: "reject", note: "Not without the old tablet back.", digest: tablet.digest, actor: await user(client, "REVIEWER") });
    expect((await dialEvidence(client)).find((e) => e.limitCents === 10000)).toMatchObject({ agreed: 1, disagreed: 1 });
    expect(await refusalCode(setAutonomyLimit({ limitCents: 10000, actor: lead }))).toBe("insufficient_evidence");
    // Nothing is written back to the shadow rows: the person's decision is read from ApprovalDecision.
    expect(await client.shadowDecision.count({ where: { OR: [{ humanDecision: { not: null } }, { agreed: { not: null } }] } })).toBe(0);
  });
});
