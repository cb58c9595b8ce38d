// The page and the domain agree: for each (request, viewer) case, what the ticket page offers (its
// view model, read the way the page reads it) is exactly what decideApproval then does – Approve
// offered if and only if the approval is taken, Reject likewise, and a refusal shown in the very code
// and words the domain answers with.
import { describe, expect, it } from "vitest";
import { useTestDb } from "@/testing/db";
import { freshOrder, newUser, tabletTicket, user } from "@/testing/runs";
import { seedDemo } from "@/prisma/seed/demo";
import { runAgent } from "@/lib/agent/run-agent";
import { decideApproval } from "@/lib/approvals/decide-approval";
import { editRefundAmount } from "@/lib/approvals/edit-approval";
import { loadDecisionFacts } from "@/lib/approvals/load-decidable";
import { executeApprovedRefund } from "@/lib/ledger/execute-approved-refund";
import { approvalDigest, type TApprovalOperation } from "@/lib/contracts/approval-operation";
import { isAppError } from "@/lib/contracts/app-error";
import type { Role } from "@/lib/contracts/roles";
import { decisionView } from "./decision-view";

const testDb = useTestDb(seedDemo);

type TPerson = { id: string; role: Role };
type TRequest = { id: string; digest: string; ticketId: string };

async function people() {
  const { client } = testDb();
  return {
    reviewer: await user(client, "REVIEWER"),
    specialist: await user(client, "SPECIALIST"),
    lead: await user(client, "LEAD"),
    admin: await user(client, "ADMIN"),
  };
}

/** A pending request on `order` (a fresh one unless given), from a run `starter` started. */
async function requestOn(order: { email: string; orderId: string }, starter?: TPerson): Promise<TRequest> {
  const { client } = testDb();
  const run = await runAgent({ ticketId: await tabletTicket(client, order), client, startedBy: starter?.id });
  if (!run.approval?.id) throw new Error(`run stopped with ${run.status}/${run.reason}`);
  return client.approvalRequest.findUniqueOrThrow({ where: { id: run.approval.id } });
}

/** Approves and executes `request` at once (the worker's job, done here). */
async function paid(request: TRequest, by: TPerson, amountCents?: number) {
  const decided = await decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, actor: by, amountCents });
  await executeApprovedRefund({ approvalId: decided.approvalId, actor: { type: "system", id: "test" } });
}

/** A 1,200 two-person refund (started by the reviewer) lowered by one cent, by a specialist of its own. */
async function loweredByOneCent() {
  const { client } = testDb();
  const lowerer = await newUser(client, "SPECIALIST");
  const original = await requestOn(await freshOrder(client, 120_000), (await people()).reviewer);
  const edit = await editRefundAmount({ approvalId: original.id, digest: original.digest, amountCents: 119_999, actor: lowerer, client });
  return { request: { id: edit!.approvalId, digest: edit!.digest, ticketId: original.ticketId }, lowerer };
}

type TCase = { name: string; make: () => Promise<{ request: TRequest; viewer: TPerson }> };

const CASES: TCase[] = [
  {
    name: "a reviewer, a reviewer's refund",
    make: async () => ({ request: await requestOn(await freshOrder(testDb().client)), viewer: (await people()).reviewer }),
  },
  {
    name: "a reviewer, a specialist's refund",
    make: async () => ({ request: await requestOn(await freshOrder(testDb().client, 65_000)), viewer: (await people()).reviewer }),
  },
  {
    name: "a specialist, a specialist's refund",
    make: async () => ({ request: await requestOn(await freshOrder(testDb().client, 65_000)), viewer: (await people()).specialist }),
  },
  {
    name: "a lead, any refund",
    make: async () => ({ request: await requestOn(await freshOrder(testDb().client)), viewer: (await people()).lead }),
  },
  {
    name: "an admin, a request made under another policy",
    make: async () => {
      const request = await requestOn(await freshOrder(testDb().client));
      const row = await testDb().client.approvalRequest.findUniqueOrThrow({ where: { id: request.id } });
      const operation = { ...(row.operation as unknown as TApprovalOperation), policyVersion: "refund-policy-v1+0000000000" };
      const digest = approvalDigest(operation);
      await testDb().client.approvalRequest.update({
        where: { id: request.id },
        data: { operation: operation as object, policyVersion: operation.policyVersion, digest },
      });
      return { request: { ...request, digest }, viewer: (await people()).admin };
    },
  },
  {
    name: "a reviewer, an expired request",
    make: async () => {
      const request = await requestOn(await freshOrder(testDb().client));
      await testDb().client.approvalRequest.update({ where: { id: request.id }, data: { expiresAt: new Date(Date.now() - 60_000) } });
      return { request, viewer: (await people()).reviewer };
    },
  },
  {
    name: "a reviewer, a superseded request",
    make: async () => {
      const request = await requestOn(await freshOrder(testDb().client));
      await testDb().client.approvalRequest.update({ where: { id: request.id }, data: { status: "superseded" } });
      return { request, viewer: (await people()).reviewer };
    },
  },
  {
    name: "a specialist, a request already approved",
    make: async () => {
      const { reviewer, specialist } = await people();
      const request = await requestOn(await freshOrder(testDb().client));
      await decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, actor: reviewer });
      return { request, viewer: specialist };
    },
  },
  {
    name: "the first approver of a two-person refund, again",
    make: async () => {
      const { reviewer, specialist } = await people();
      const request = await requestOn(await freshOrder(testDb().client, 120_000), reviewer);
      await decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, actor: specialist });
      return { request, viewer: specialist };
    },
  },
  {
    name: "the starter of a two-person refund's run",
    make: async () => {
      const { specialist } = await people();
      return { request: await requestOn(await freshOrder(testDb().client, 120_000), specialist), viewer: specialist };
    },
  },
  {
    name: "a specialist, a two-person refund someone else started",
    make: async () => ({
      request: await requestOn(await freshOrder(testDb().client, 120_000), (await people()).reviewer),
      viewer: (await people()).specialist,
    }),
  },
  {
    name: "whoever lowered a two-person refund, on the lowered request",
    make: async () => {
      const { request, lowerer } = await loweredByOneCent();
      return { request, viewer: lowerer };
    },
  },
  {
    name: "an admin, a two-person refund someone else lowered",
    make: async () => ({ request: (await loweredByOneCent()).request, viewer: (await people()).admin }),
  },
  {
    name: "a reviewer, a refund its order can no longer pay",
    make: async () => {
      const { reviewer } = await people();
      const order = await freshOrder(testDb().client);
      const [first, second] = [await requestOn(order), await requestOn(order)];
      await paid(first, reviewer);
      return { request: second, viewer: reviewer };
    },
  },
  {
    name: "a reviewer, a refund its order can pay only in part",
    make: async () => {
      const { reviewer } = await people();
      const order = await freshOrder(testDb().client);
      const [first, second] = [await requestOn(order), await requestOn(order)];
      await paid(first, reviewer, 5_000);
      return { request: second, viewer: reviewer };
    },
  },
];

/** The domain's answer to a decision: taken, or the refusal's code and words. */
async function domainAnswer(request: TRequest, viewer: TPerson, decision: "approve" | "reject") {
  try {
    await decideApproval({
      approvalId: request.id,
      decision,
      digest: request.digest,
      note: decision === "reject" ? "Checked." : undefined,
      actor: viewer,
    });
    return { taken: true, code: null, message: null };
  } catch (error) {
    if (!isAppError(error)) throw error;
    return { taken: false, code: error.code, message: error.message };
  }
}

describe("the ticket page and decideApproval", () => {
  it.each(CASES)("agree on approving: $name", async ({ make }) => {
    const { request, viewer } = await make();
    const view = decisionView((await loadDecisionFacts(request.id, testDb().client))!, viewer, new Date());
    const answer = await domainAnswer(request, viewer, "approve");
    // Approve at the proposed amount is offered exactly when the domain takes it; otherwise the page
    // shows the refusal the domain answers, in its words.
    expect({
      offered: view.refusalCode === null && view.canApprove,
      code: view.refusalCode,
      message: view.whyNot ?? view.blocked ?? null,
    }).toEqual({ offered: answer.taken, code: answer.code, message: answer.message });
  });

  it.each(CASES)("agree on rejecting: $name", async ({ make }) => {
    const { request, viewer } = await make();
    const view = decisionView((await loadDecisionFacts(request.id, testDb().client))!, viewer, new Date());
    const answer = await domainAnswer(request, viewer, "reject");
    expect(view.canReject).toBe(answer.taken);
  });

  it("shows whoever lowered a two-person refund why they may not approve it, and the lowered request as two-person", async () => {
    const { request, lowerer } = await loweredByOneCent();
    const facts = (await loadDecisionFacts(request.id, testDb().client))!;
    expect(facts).toMatchObject({ approvalsRequired: 2, requiredRole: "SPECIALIST", loweredByIds: [lowerer.id] });
    expect(decisionView(facts, lowerer, new Date())).toMatchObject({
      canApprove: false,
      canReject: true,
      refusalCode: "run_starter_excluded",
      whyNot: "You lowered this refund: it still needs two people, and the approvals must come from two others.",
    });
  });

  it("offers, on a refund its order can pay only in part, an approval of what remains – and the domain takes exactly that", async () => {
    const { request, viewer } = await CASES.find((c) => c.name.includes("only in part"))!.make();
    const view = decisionView((await loadDecisionFacts(request.id, testDb().client))!, viewer, new Date());
    expect(view).toMatchObject({ canApprove: true, maxApproveCents: 2_900, refusalCode: "exceeds_refundable" });
    await expect(
      decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, amountCents: 2_901, actor: viewer }),
    ).rejects.toMatchObject({ code: "exceeds_refundable" });
    await expect(
      decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, amountCents: 2_900, actor: viewer }),
    ).resolves.toMatchObject({ decision: "approve" });
  });
});
