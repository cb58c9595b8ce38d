import { describe, expect, it } from "vitest";
import { POLICY_DOCUMENTS } from "../../prisma/seed/demo";
import { draftReply } from "../agent/rule-drafter";
import { initialState, type TOrderFacts } from "../agent/state";
import { orderNumbers, orderTerms } from "../agent/tools";
import { checkDraft } from "../evidence/check-draft";
import { customerReply, replyEdit, replyWithAmount } from "./customer-reply";

describe("customerReply", () => {
  it("takes the citations out and closes up the space they leave", () => {
    const draft = "Hi Dana,\r\n\r\nItems that arrive damaged may be returned within 30 days of delivery [return-policy-us@2].\r\nOur policy says: “Refunds go to the original payment method.” [refund-methods@1]\r\n";
    expect(customerReply(draft)).toBe("Hi Dana,\n\nItems that arrive damaged may be returned within 30 days of delivery.\nOur policy says: “Refunds go to the original payment method.”");
  });

  it("leaves brackets that are not citations", () => {
    expect(customerReply("Order [ORD-1001] and [see above].")).toBe("Order [ORD-1001] and [see above].");
  });
});

describe("replyEdit", () => {
  it("is no edit when only the line endings or outer space differ", () => {
    expect(replyEdit("Hi,\nThanks.", "Hi,\r\nThanks.\r\n")).toBeNull();
    expect(replyEdit("Hi,\nThanks.", "  ")).toBeNull();
  });

  it("is the edit, with its line endings as \\n, when the words differ", () => {
    expect(replyEdit("Hi,\nThanks.", "Hi,\r\nThank you.")).toBe("Hi,\nThank you.");
  });
});

// The reply the rule drafter writes for a damaged tablet inside the window, from the demo policy's passages.
const ORDER: TOrderFacts = {
  id: "ORD-1001",
  item: "Aurora 10-inch tablet",
  category: "electronics",
  amountCents: 7_900,
  currency: "USD",
  deliveredAt: null,
  daysSinceDelivery: 12,
  refundedCents: 0,
  refundableCents: 7_900,
  customerName: "Dana Whitfield",
  customerFlagged: false,
};
const policy = POLICY_DOCUMENTS.find((d) => d.docKey === "return-policy-us" && d.status === "published")!;
const PASSAGES = policy.body.split("\n\n").map((text, i) => ({ chunkId: `c${i}`, docKey: policy.docKey, version: policy.version, citation: `${policy.docKey}@${policy.version}`, title: policy.title, heading: policy.section, text, locale: "en", audience: "customer" as const, score: 0.5, coverage: 0.5 }));

function drafted(methodPassage = true): string {
  const passages = methodPassage ? PASSAGES : PASSAGES.filter((p) => !/original payment method/.test(p.text));
  const ticket = { id: "", number: 0, subject: "Tablet arrived with a cracked screen", body: "My tablet arrived with a cracked screen. Can I get a refund?", customerEmail: "", orderRef: ORDER.id };
  const evidence = { status: "grounded" as const, question: "", passages, citations: [...new Set(passages.map((p) => p.citation))] };
  return draftReply({ ...initialState(ticket), evidence, order: { found: true, order: ORDER } }).text;
}

describe("replyWithAmount", () => {
  it("lowered, states the new amount and no longer calls the refund full", () => {
    const draft = drafted();
    expect(draft).toMatch(/a full refund/);
    const lowered = customerReply(replyWithAmount(draft, 7_900, 5_000));
    expect(lowered).toContain("We have refunded 50.00 USD to your original payment method.");
    expect(lowered).not.toMatch(/79\.00|\bfull\b/i);
    expect(lowered).toContain("may be returned for a refund within 30 days of delivery.");
  });

  it("drops “in full” after the lowered amount, whichever sentence the drafter wrote", () => {
    const draft = drafted(false);
    expect(draft).toMatch(/We have refunded 79\.00 USD in full \[/);
    const lowered = customerReply(replyWithAmount(draft, 7_900, 2_550));
    expect(lowered).toContain("We have refunded 25.50 USD.");
    expect(lowered).not.toMatch(/\bfull\b/i);
  });

  it("leaves a reply whose amount is not lowered as it was, “full” included", () => {
    const draft = drafted();
    expect(replyWithAmount(draft, 7_900, 7_900)).toBe(draft);
    expect(replyWithAmount("Electronics may be returned for a full refund.", 5_000, 7_900)).toBe("Electronics may be returned for a full refund.");
  });

  it("gives a lowered reply that the draft check still passes, sentence by sentence", () => {
    const lowered = replyWithAmount(drafted(), 7_900, 5_000);
    // The lowered amount is the person's, an order fact like the agent's proposal: the check reads it from the order.
    const check = (text: string, extra: number[]) => checkDraft({ draft: text, retrieved: PASSAGES, orderNumbers: [...orderNumbers(ORDER), ...extra], orderTerms: orderTerms(ORDER) });
    expect(check(drafted(), [])).toEqual([]);
    expect(check(lowered, [50])).toEqual([]);
    expect(check(replyWithAmount(drafted(false), 7_900, 5_000), [50])).toEqual([]);
  });
});
