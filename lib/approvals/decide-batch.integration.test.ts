// Batch decisions: each item against its own digest, through decideApproval; a stale item refused
// while the others are decided; the preview says who may decide what.
import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { refusalCode } from "../../testing/refusals";
import { approvalFor, freshOrder, tabletTicket, user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { approvalDigest, type TApprovalOperation } from "../contracts/approval-operation";
import { decideBatch, MAX_BATCH_DECISIONS, previewBatch } from "./decide-batch";

const testDb = useTestDb(seedDemo);

async function waiting(n: number) {
  const { client } = testDb();
  const out = [];
  for (let i = 0; i < n; i++) {
    const ticketId = await tabletTicket(client, await freshOrder(client));
    const approval = await approvalFor(client, ticketId);
    out.push({ ticketId, approvalId: approval.id, digest: approval.digest });
  }
  return out;
}

/** Makes a request look as if it had been made under an earlier policy: what a settings change does to it. */
async function makeStale(approvalId: string) {
  const { client } = testDb();
  const request = await client.approvalRequest.findUniqueOrThrow({ where: { id: approvalId } });
  const operation = { ...(request.operation as unknown as TApprovalOperation), policyVersion: "refund-policy-v1+0000000000" };
  const digest = approvalDigest(operation);
  await client.approvalRequest.update({
    where: { id: approvalId },
    data: { operation: operation as object, policyVersion: operation.policyVersion, digest },
  });
  return digest;
}

describe("decideBatch", () => {
  it("decides five against their own digests: four approved, the stale one refused, nothing else touched", async () => {
    const { client } = testDb();
    const items = await waiting(5);
    items[2]!.digest = await makeStale(items[2]!.approvalId);
    const reviewer = await user(client, "REVIEWER");

    const preview = await previewBatch({ ticketIds: items.map((i) => i.ticketId), viewer: reviewer });
    expect(preview.map((p) => [p.approvalId, p.refusal?.code ?? null, p.mayDecide])).toEqual(
      items.map((i, n) => [i.approvalId, n === 2 ? "stale" : null, n !== 2]),
    );
    expect(preview[0]).toMatchObject({
      kind: "refund",
      proposal: { amountCents: 7900, currency: "USD" },
      requiredRole: "REVIEWER",
      citations: ["return-policy-us@2"],
    });
    // The words the customer receives, without the citations that are for the reviewer.
    expect(preview[0]!.reply).toMatch(/79\.00 USD/);
    expect(preview[0]!.reply).not.toContain("[return-policy-us@2]");

    const outcomes = await decideBatch({
      items: preview.map((p) => ({ approvalId: p.approvalId, digest: p.digest })),
      decision: "approve",
      note: "Photos check out.",
      actor: reviewer,
    });
    expect(outcomes.map((o) => o.outcome)).toEqual(["approved", "approved", "refused", "approved", "approved"]);
    expect(outcomes[2]).toMatchObject({ code: "stale" });
    const decided = await client.approvalDecision.findMany({ where: { approvalRequestId: { in: items.map((i) => i.approvalId) } } });
    expect(decided.map((d) => d.approvalRequestId).sort()).toEqual(
      items
        .filter((_, n) => n !== 2)
        .map((i) => i.approvalId)
        .sort(),
    );
    expect(decided.every((d) => d.decision === "approve" && d.note === "Photos check out.")).toBe(true);
    expect((await client.approvalRequest.findUniqueOrThrow({ where: { id: items[2]!.approvalId } })).status).toBe("pending");
  });

  it("refuses an item whose digest is not the one shown, and decides the rest", async () => {
    const { client } = testDb();
    const items = await waiting(2);
    const outcomes = await decideBatch({
      items: [{ ...items[0]!, digest: "0".repeat(64) }, items[1]!],
      decision: "reject",
      note: "Duplicate tickets.",
      actor: await user(client, "SPECIALIST"),
    });
    expect(outcomes).toMatchObject([{ outcome: "refused", code: "operation_changed" }, { outcome: "rejected" }]);
  });

  it("refuses a lead, a rejection without a note, an empty, repeated or oversized batch, deciding nothing", async () => {
    const { client } = testDb();
    const [item] = await waiting(1);
    const before = await client.approvalDecision.count();
    expect(await refusalCode(decideBatch({ items: [item!], decision: "approve", actor: await user(client, "LEAD") }))).toBe("forbidden");
    expect(await refusalCode(decideBatch({ items: [item!], decision: "reject", note: "  ", actor: await user(client, "REVIEWER") }))).toBe(
      "note_required",
    );
    expect(await refusalCode(decideBatch({ items: [], decision: "approve", actor: await user(client, "REVIEWER") }))).toBe("invalid");
    expect(await refusalCode(decideBatch({ items: [item!, item!], decision: "approve", actor: await user(client, "REVIEWER") }))).toBe(
      "invalid",
    );
    const many = Array.from({ length: MAX_BATCH_DECISIONS + 1 }, (_, i) => ({
      approvalId: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
      digest: "0".repeat(64),
    }));
    expect(await refusalCode(decideBatch({ items: many, decision: "approve", actor: await user(client, "REVIEWER") }))).toBe("invalid");
    expect(await client.approvalDecision.count()).toBe(before);
  });

  it("previews what the viewer may not decide, and why", async () => {
    const { client } = testDb();
    const [item] = await waiting(1);
    const [row] = await previewBatch({ ticketIds: [item!.ticketId], viewer: await user(client, "LEAD") });
    expect(row).toMatchObject({
      mayDecide: false,
      refusal: { code: "role_insufficient", message: "Leads cannot approve or reject requests." },
    });
  });

  it("previews a specialist's refund as not decidable by a reviewer, for the reason a decision would give", async () => {
    const { client } = testDb();
    const [item] = await waiting(1);
    await client.approvalRequest.update({ where: { id: item!.approvalId }, data: { requiredRole: "SPECIALIST" } });
    const reviewer = await user(client, "REVIEWER");
    const [row] = await previewBatch({ ticketIds: [item!.ticketId], viewer: reviewer });
    const [outcome] = await decideBatch({ items: [item!], decision: "approve", actor: reviewer });
    expect(row).toMatchObject({ mayDecide: false, refusal: { code: "role_insufficient" } });
    expect(outcome).toMatchObject({ outcome: "refused", code: row!.refusal!.code, message: row!.refusal!.message });
  });
});
