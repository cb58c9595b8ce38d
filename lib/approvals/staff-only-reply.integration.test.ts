// Staff-only passages reach the reviewer, never the customer. The runtime refuses a draft that
// repeats one (check-draft.ts, rule 5); this is the second guard, where a reply is approved: an edit
// that pastes one in, or a draft that slipped past the runtime, is refused before anything is written,
// so no outbox message, decision or refund carries it.
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { drainQueue } from "../../testing/queue";
import { refusalCode } from "../../testing/refusals";
import { approvalFor, freshOrder, tabletTicket, user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { DAMAGED_RETURNS_NOTE, publishStaffNote } from "../../testing/staff-note";
import { approvalDigest, approvalOperation, type TApprovalOperation } from "../contracts/approval-operation";
import { decideApproval } from "./decide-approval";
import { resolveByHand } from "./resolve-by-hand";

const testDb = useTestDb(seedDemo);

// A reviewer's note in a staff-only section of a published document, which the cracked-tablet question
// retrieves beside the return policy's customer passages.
const STAFF_NOTE = DAMAGED_RETURNS_NOTE.staff;
const LEAKED = "We checked your order history for earlier damage claims before approving.";

beforeAll(async () => {
  await publishStaffNote(testDb().client, DAMAGED_RETURNS_NOTE);
});

/** A fresh tablet refund waiting for its decision, its run having retrieved the staff-only note. */
async function requestWithStaffNote() {
  const { client } = testDb();
  const request = await approvalFor(client, await tabletTicket(client, await freshOrder(client)));
  const run = await client.agentRun.findUniqueOrThrow({ where: { id: request.runId! } });
  const passages = (run.evidence as { passages: { text: string; audience: string }[] }).passages;
  expect(passages).toContainEqual(expect.objectContaining({ text: STAFF_NOTE, audience: "staff" }));
  // The rule drafter wrote nothing of it.
  expect(request.draft).not.toMatch(/order history/);
  return request;
}

async function nothingSent(approvalId: string) {
  const { client } = testDb();
  await drainQueue(testDb());
  expect(await client.outboxMessage.count({ where: { approvalRequestId: approvalId } })).toBe(0);
  expect(await client.approvalDecision.count({ where: { approvalRequestId: approvalId } })).toBe(0);
  expect(await client.ledgerEntry.count({ where: { approvalRequestId: approvalId } })).toBe(0);
}

describe("a staff-only passage never reaches the outbox", () => {
  it("sends the draft without it when it is approved as it is", async () => {
    const { client } = testDb();
    const request = await requestWithStaffNote();
    await decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, actor: await user(client, "REVIEWER") });
    await drainQueue(testDb());
    const [sent] = await client.outboxMessage.findMany({ where: { approvalRequestId: request.id } });
    expect(sent!.body).toContain("We have refunded 79.00 USD");
    expect(sent!.body).not.toMatch(/order history|damage claims/);
  });

  it("refuses an edit that pastes it into the reply, and writes nothing", async () => {
    const { client } = testDb();
    const request = await requestWithStaffNote();
    const decided = decideApproval({
      approvalId: request.id,
      decision: "approve",
      digest: request.digest,
      editedReply: `${request.draft}\n${LEAKED}`,
      actor: await user(client, "REVIEWER"),
    });
    await expect(decided).rejects.toMatchObject({
      code: "reply_staff_only",
      field: "editedReply",
      message: expect.stringContaining(LEAKED),
    });
    await nothingSent(request.id);
  });

  it("refuses a draft that carries it past the runtime's checks, though its digest is the one shown", async () => {
    const { client } = testDb();
    const request = await requestWithStaffNote();
    // A draft the runtime would have refused, as if it had slipped through: the request and its digest rewritten to match.
    const draft = `${request.draft}\n${LEAKED}`;
    const before = request.operation as unknown as TApprovalOperation;
    const operation = approvalOperation({
      proposal: before.proposal,
      draft,
      policyVersion: before.policyVersion,
      bundleVersion: before.bundleVersion,
      corpusHash: before.corpusHash,
    });
    const digest = approvalDigest(operation);
    await client.approvalRequest.update({ where: { id: request.id }, data: { draft, operation: operation as object, digest } });
    const reviewer = await user(client, "REVIEWER");
    expect(await refusalCode(decideApproval({ approvalId: request.id, decision: "approve", digest, actor: reviewer }))).toBe(
      "reply_staff_only",
    );
    await nothingSent(request.id);
    // A rejection sends nothing, so it is not held up by the same check.
    await decideApproval({ approvalId: request.id, decision: "reject", digest, note: "Leaks a reviewer's note.", actor: reviewer });
    expect(await client.outboxMessage.count({ where: { approvalRequestId: request.id } })).toBe(0);
  });

  it("refuses a reply written by hand after a rejection that repeats it, and sends the one that does not", async () => {
    const { client } = testDb();
    const request = await requestWithStaffNote();
    const reviewer = await user(client, "REVIEWER");
    await decideApproval({
      approvalId: request.id,
      decision: "reject",
      digest: request.digest,
      note: "I will answer myself.",
      actor: reviewer,
    });
    const byHand = (reply: string) => resolveByHand({ ticketId: request.ticketId, reply, actor: reviewer });
    await expect(byHand(`Hi,\n${LEAKED}\nA colleague will be in touch.`)).rejects.toMatchObject({
      code: "reply_staff_only",
      field: "reply",
    });
    expect(await client.outboxMessage.count({ where: { ticketId: request.ticketId } })).toBe(0);
    await byHand("Hi,\nA colleague will be in touch about your tablet.");
    const [sent] = await client.outboxMessage.findMany({ where: { ticketId: request.ticketId } });
    expect(sent!.body).toBe("Hi,\nA colleague will be in touch about your tablet.");
  });
});
