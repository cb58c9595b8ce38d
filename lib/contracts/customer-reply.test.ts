import { describe, expect, it } from "vitest";
import { customerReply, replyEdit } from "./customer-reply";

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
