// Claim-level grounding from the side of honest drafts: the rule drafter's reply to every answerable
// labelled question, for orders inside and outside the window, passes the same check the runtime
// applies to every draft – so the threshold cannot be tuned to refuse everything – and the seeded
// tickets and a customer whose name has a digit in it reach review through the real loop.
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { DAMAGED_RETURNS_NOTE, publishStaffNote } from "../../testing/staff-note";
import { seedDemo, TICKETS } from "../../prisma/seed/demo";
import { loadQuestionSet } from "../eval/grade-retrieval";
import { answerPolicyQuestion } from "../evidence/answer-policy-question";
import { ticketLanguage } from "../evidence/language";
import { createTicket } from "../intake/create-ticket";
import { draftProblem } from "./draft-invariants";
import { draftReply } from "./rule-drafter";
import { evidenceQuestion } from "./rule-planner";
import { runAgent } from "./run-agent";
import { initialState, type TOrderFacts } from "./state";
import { orderFactsOf, readOrder } from "./tools";

const testDb = useTestDb(seedDemo);

describe("the rule drafter's drafts under the claim-level check", () => {
  it("pass for every answerable labelled question, inside and outside the window and when nothing is left to refund (or, on another document than the labelled one, are refused as off its question)", async () => {
    const { client } = testDb();
    const set = await loadQuestionSet("eval/questions.jsonl");
    const answerable = set.questions.filter((q) => q.answerable);
    expect(answerable.length).toBeGreaterThanOrEqual(25);
    const inWindow = orderFactsOf((await readOrder(client, "ORD-1001"))!);
    const orders: TOrderFacts[] = [
      inWindow,
      orderFactsOf((await readOrder(client, "ORD-1002"))!),
      orderFactsOf((await readOrder(client, "ORD-1004"))!),
      { ...inWindow, customerName: "Race2", refundedCents: inWindow.amountCents, refundableCents: 0 },
    ];
    const failures: string[] = [];
    const written = new Set<string>();
    for (const q of answerable) {
      const evidence = await answerPolicyQuestion(client, { question: evidenceQuestion(q), locale: ticketLanguage(q) });
      if (evidence.status !== "grounded") continue;
      for (const order of orders) {
        const state = {
          ...initialState({ id: "", number: 0, subject: q.subject, body: q.body, customerEmail: "", orderRef: order.id }),
          evidence,
          order: { found: true as const, order },
        };
        const draft = draftReply(state);
        written.add(draft.text);
        const problem = draftProblem(draft, state);
        // A draft on another document than the one that answers the question may be refused as off
        // its question – that is the relevance check's work; one on the right document may not be refused.
        const elsewhere = !draft.citations.includes(q.cites!);
        if (problem && !(elsewhere && problem.reason === "evidence_off_topic"))
          failures.push(`${q.id} / ${order.id}: ${problem.reason} ${problem.detail}`);
      }
    }
    expect(failures).toEqual([]);
    // The set covers the sentences that matter: a refund with its amount, a refusal outside the window, quoted rules.
    expect([...written].some((t) => /We have refunded 79\.00 USD to your original payment method \[return-policy-us@2\]/.test(t))).toBe(
      true,
    );
    expect([...written].some((t) => /are not eligible for a refund under this policy \[return-policy-us@2\]/.test(t))).toBe(true);
    expect([...written].some((t) => /Our policy says: “.*” \[support-sla@1\]/.test(t))).toBe(true);
    expect(written.size).toBeGreaterThanOrEqual(20);
  }, 120_000);

  it("reach review through the real loop for every seeded ticket that gets a draft", async () => {
    const { client } = testDb();
    const drafted: string[] = [];
    for (const t of TICKETS) {
      const ticket = await client.ticket.findUniqueOrThrow({ where: { externalId: t.externalId } });
      const run = await runAgent({ ticketId: ticket.id, mode: "simulate" });
      expect(run.reason, `${t.externalId}: ${JSON.stringify(run.steps.at(-1)?.result)}`).not.toBe("tool_invalid_output");
      if (run.draft) drafted.push(t.externalId);
    }
    expect(drafted).toEqual(expect.arrayContaining(["demo-cracked-tablet", "demo-large-laptop-refund", "demo-sla-question"]));
  }, 120_000);

  it("does not take a customer's name for a claim: Race2's draft reaches review", async () => {
    const { client } = testDb();
    const customer = await client.customer.create({ data: { id: "CUS-RACE2", email: "race2@example.net", name: "Race2" } });
    await client.order.create({
      data: {
        id: "ORD-2002",
        customerId: customer.id,
        item: "Aurora 10-inch tablet",
        category: "electronics",
        amountCents: 7_900,
        placedAt: new Date(Date.now() - 15 * 86_400_000),
        deliveredAt: new Date(Date.now() - 12 * 86_400_000),
      },
    });
    const ticket = await client.$transaction((tx) =>
      createTicket(
        {
          subject: "Tablet arrived with a cracked screen",
          body: "My tablet (order ORD-2002) arrived with a cracked screen. Can I get a refund?",
          customerEmail: customer.email,
          orderRef: "ORD-2002",
          source: "form",
        },
        { type: "system" },
        tx,
      ),
    );
    const run = await runAgent({ ticketId: ticket.id, mode: "simulate" });
    expect(run).toMatchObject({ status: "needs_human", reason: "draft_ready_for_review", citations: ["return-policy-us@2"] });
    expect(run.draft).toContain("Hi Race2,");
  });
});

describe("staff-only passages in a run", () => {
  const note = DAMAGED_RETURNS_NOTE.staff;

  beforeAll(async () => {
    await publishStaffNote(testDb().client, DAMAGED_RETURNS_NOTE);
  });

  it("are retrieved for the reviewer, left out of the rule drafter's reply, and refused in a draft that repeats one", async () => {
    const { client } = testDb();
    const ticket = await client.ticket.findUniqueOrThrow({ where: { externalId: "demo-cracked-tablet" } });
    const honest = await runAgent({ ticketId: ticket.id, mode: "simulate" });
    expect(honest).toMatchObject({ status: "needs_human", reason: "draft_ready_for_review" });
    expect(honest.steps[0]!.result).toMatchObject({
      passages: expect.arrayContaining([expect.objectContaining({ text: note, audience: "staff" })]),
    });
    expect(honest.draft).not.toMatch(/order history/);

    const leaked = `${honest.draft}\nWe check the order history for earlier damage claims before approving [return-policy-us@2].`;
    const run = await runAgent({
      ticketId: ticket.id,
      mode: "simulate",
      tools: { draft_reply: async () => ({ text: leaked, citations: ["return-policy-us@2"] }) },
    });
    expect(run).toMatchObject({ status: "needs_human", reason: "tool_invalid_output", draft: null });
    expect(run.steps[2]!.result).toMatchObject({ detail: expect.stringContaining("staff_only_text “We check the order history") });
  });
});
