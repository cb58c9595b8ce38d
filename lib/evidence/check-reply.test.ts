import { describe, expect, it } from "vitest";
import { amountsIn, checkReply, describeReplyProblem } from "./check-reply";

const usd = (amountCents: number) => ({ amountCents, currency: "USD" });

describe("a reply held to the refund it goes out with", () => {
  it("reads amounts with a currency or cents, never a number of days", () => {
    expect(amountsIn("We have refunded 5,000.00 USD, $12, USD 7 and 3 € within 30 days; 79.00 in all.")).toEqual([
      "5000",
      "12",
      "7",
      "3",
      "79",
    ]);
    expect(amountsIn("Returns within 30 days of delivery [return-policy-us@2].")).toEqual([]);
  });

  it("passes the agent's drafts: the refund's amount, the policy's days, cited", () => {
    const draft =
      "I'm sorry it arrived damaged. Electronics that arrive damaged may be returned for a full refund within 30 days of delivery [return-policy-us@2].\n" +
      "We have refunded 79.00 USD to your original payment method [refund-methods@1].";
    expect(checkReply({ reply: draft, refund: usd(7_900) })).toEqual([]);
  });

  it("refuses a refund sentence stating another amount, naming it", () => {
    const problems = checkReply({ reply: "Thanks for waiting. We have refunded 5,000.00 USD.", refund: usd(7_900) });
    expect(problems).toEqual([{ kind: "amount_not_refunded", sentence: "We have refunded 5,000.00 USD.", amount: "5000" }]);
    expect(describeReplyProblem(problems[0]!, usd(7_900))).toBe(
      "The reply states an amount other than the refund being made (79.00 USD): “We have refunded 5,000.00 USD.” Write the refund's amount, or take the amount out.",
    );
    // Lowered to 50.00, the old amount is another amount.
    expect(checkReply({ reply: "We have refunded 79.00 USD [refund-methods@1].", refund: usd(5_000) })).toHaveLength(1);
    expect(checkReply({ reply: "We have refunded 50.00 USD [refund-methods@1].", refund: usd(5_000) })).toEqual([]);
  });

  it("refuses, without a refund, a sentence promising one; a denial or a cited rule passes", () => {
    expect(checkReply({ reply: "We have refunded your order.", refund: null })).toEqual([
      { kind: "refund_not_made", sentence: "We have refunded your order." },
    ]);
    expect(checkReply({ reply: "You will be reimbursed 79.00 USD [refund-methods@1].", refund: null })).toHaveLength(1);
    expect(
      checkReply({
        reply:
          "This order is not eligible for a refund [return-policy-us@2]. We cannot refund it. Refunds are paid to the original payment method [refund-methods@1].",
        refund: null,
      }),
    ).toEqual([]);
  });
});
