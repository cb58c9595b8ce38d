// Which settings changes make a waiting approval stale: only those that decide refunds. Through the
// real loop (the rule planner on the demo data) and the real decision.
import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { approvalFor, freshOrder, tabletTicket, user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { decideApproval } from "../approvals/decide-approval";
import { loadPolicySettings } from "./settings";
import { updatePolicySettings } from "./update-settings";

const testDb = useTestDb(seedDemo);

/** A fresh order's tablet refund, proposed by the rule planner and waiting for a reviewer. */
async function waitingRequest() {
  const { client } = testDb();
  return approvalFor(client, await tabletTicket(client, await freshOrder(client)));
}

describe("a settings change and the approvals waiting under it", () => {
  it("leaves a waiting approval decidable when the default planner changes: it is approved and its refund proceeds", async () => {
    const { client } = testDb();
    const reviewer = await user(client, "REVIEWER");
    const admin = await user(client, "ADMIN");
    const request = await waitingRequest();
    const saved = await updatePolicySettings({
      changes: { "agent.defaultPlanner": "model" },
      actor: admin,
      modelPlanner: { available: true },
    });
    expect(saved.changed).toEqual(["agent.defaultPlanner"]);
    expect((await loadPolicySettings(client))["agent.defaultPlanner"]).toBe("model");

    const decided = await decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, actor: reviewer });
    expect(decided).toMatchObject({ decision: "approve", refundJobEnqueued: true });
    expect(await client.approvalDecision.count({ where: { approvalRequestId: request.id, decision: "approve" } })).toBe(1);
  });

  it("makes a waiting approval stale when a refund threshold changes: deciding it is refused, nothing recorded", async () => {
    const { client } = testDb();
    const reviewer = await user(client, "REVIEWER");
    const admin = await user(client, "ADMIN");
    const request = await waitingRequest();
    const threshold = (await loadPolicySettings(client))["policy.specialistThresholdCents"];
    await updatePolicySettings({ changes: { "policy.specialistThresholdCents": threshold + 100 }, actor: admin });

    const decision = decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, actor: reviewer });
    await expect(decision).rejects.toMatchObject({ code: "stale" });
    expect(await client.approvalDecision.count({ where: { approvalRequestId: request.id } })).toBe(0);
  });
});
