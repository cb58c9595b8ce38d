// The corpus hash, and the approvals waiting under it: a publish makes them stale as a refund
// setting does – the decision refuses them with `stale`, the queue lists them as stale – and a request
// made after the publish is current. Through the real loop, the real publish and the real decision.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { draftVersion, finishedEvaluation, policyMarkdown, publishedVersion } from "../../testing/evaluations";
import { refusalCode } from "../../testing/refusals";
import { approvalFor, freshOrder, tabletTicket, user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { decideApproval } from "../approvals/decide-approval";
import { publishVersion } from "../documents/publish-version";
import { retireDocument } from "../documents/retire-document";
import { submitForReview } from "../documents/submit-for-review";
import { listView } from "../queue/list-view";
import { viewCounts } from "../queue/view-counts";
import { corpusHash } from "./corpus-hash";

const testDb = useTestDb(seedDemo);

const SLA_V2 = policyMarkdown({
  key: "support-sla",
  title: "Support service levels",
  section: "Response times",
  paragraphs: [
    "Every ticket receives a first response within 12 hours. Tickets about damaged or missing items are answered within 4 hours.",
    "A refund approved by a reviewer reaches the original payment method within 3 business days.",
  ],
});

/** A fresh order's tablet refund, proposed by the rule planner and waiting for a reviewer. */
async function waitingRequest() {
  const { client } = testDb();
  return approvalFor(client, await tabletTicket(client, await freshOrder(client)));
}

/** The definition, written out again: "docKey@version contentHash" per version in effect, in key order. */
async function expectedHash(): Promise<string> {
  const rows = await testDb().client.$queryRaw<{ line: string }[]>`
    SELECT d."docKey" || '@' || d."version" || ' ' || d."contentHash" AS line
    FROM "PolicyDocument" d
    WHERE d."status" = 'published' AND NOT EXISTS (
      SELECT 1 FROM "PolicyDocument" n WHERE n."docKey" = d."docKey" AND n."status" = 'published' AND n."version" > d."version")`;
  const lines = rows.map((r) => r.line).sort((a, b) => (Buffer.from(a) < Buffer.from(b) ? -1 : 1));
  return createHash("sha256").update(lines.join("\n"), "utf8").digest("hex");
}

describe("the corpus hash", () => {
  it("is sha256 over the versions in effect, and moves with a publish and a retirement, as every run records it", async () => {
    const { client } = testDb();
    const first = await corpusHash(client);
    expect(first).toBe(await expectedHash());
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    const request = await waitingRequest();
    const run = await client.agentRun.findUniqueOrThrow({ where: { id: request.runId! } });
    expect([run.corpusHash, request.corpusHash, (request.operation as { corpusHash: string }).corpusHash]).toEqual([first, first, first]);

    const [author, lead] = [await user(client, "SPECIALIST"), await user(client, "LEAD")];
    const documentId = await draftVersion(client, author, SLA_V2);
    await submitForReview({ documentId, actor: author, client });
    // The corpus as it would be with the version published: what its evaluation grades.
    const asIfPublished = await corpusHash(client, { candidate: documentId });
    expect(await corpusHash(client)).toBe(first);
    await finishedEvaluation(client, documentId, author.id);
    await publishVersion({ documentId, actor: lead, client });
    const second = await corpusHash(client);
    expect(second).not.toBe(first);
    expect(second).toBe(await expectedHash());
    expect(second).toBe(asIfPublished);

    await retireDocument({ docKey: "support-sla", actor: await user(client, "LEAD"), client });
    expect(await corpusHash(client)).not.toBe(second);
    expect(await corpusHash(client)).toBe(await expectedHash());
  });
});

describe("a publish and the approvals waiting under the corpus before it", () => {
  it("makes an approval made before it stale: the decision refuses it, nothing recorded, and the queue lists it stale", async () => {
    const { client } = testDb();
    const reviewer = await user(client, "REVIEWER");
    const before = await waitingRequest();
    const staleBefore = (await viewCounts({ userId: reviewer.id, client, maxAgeMs: 0 })).stale;

    await publishedVersion(
      client,
      { author: await user(client, "SPECIALIST"), publisher: await user(client, "LEAD") },
      SLA_V2.replace("12 hours", "10 hours"),
    );

    expect(await refusalCode(decideApproval({ approvalId: before.id, decision: "approve", digest: before.digest, actor: reviewer }))).toBe(
      "stale",
    );
    expect(await client.approvalDecision.count({ where: { approvalRequestId: before.id } })).toBe(0);
    const stale = await listView({ view: "stale", userId: reviewer.id, client });
    expect(stale.rows.map((r) => r.id)).toContain(before.ticketId);
    expect(stale.rows.find((r) => r.id === before.ticketId)!.pendingStale).toBe(true);
    expect((await viewCounts({ userId: reviewer.id, client, maxAgeMs: 0 })).stale).toBe(staleBefore + 1);

    // Made after the publish: current, not listed stale, and approved.
    const after = await waitingRequest();
    expect(after.corpusHash).toBe(await corpusHash(client));
    const listed = await listView({ view: "stale", userId: reviewer.id, client });
    expect(listed.rows.map((r) => r.id)).not.toContain(after.ticketId);
    const decided = await decideApproval({ approvalId: after.id, decision: "approve", digest: after.digest, actor: reviewer });
    expect(decided).toMatchObject({ decision: "approve" });
  });
});
