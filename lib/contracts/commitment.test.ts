import { describe, expect, it } from "vitest";
import { commitment, committedArgs, committedText } from "./commitment";

describe("commitments to personal values", () => {
  it("are the same for the same salt and value, and differ with either", () => {
    const a = commitment("salt-a", "Ada Lovelace");
    expect(a).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    expect(commitment("salt-a", "Ada Lovelace")).toBe(a);
    expect(commitment("salt-b", "Ada Lovelace")).not.toBe(a);
    expect(commitment("salt-a", "Ada Lovelac")).not.toBe(a);
  });

  it("keep only a length when there is no salt to commit with", () => {
    expect(committedText(null, "Ada Lovelace")).toBe("withheld:12");
  });

  it("commit a tool's free text and keep its identifiers and amounts", () => {
    const args = { order_id: "ORD-1", amount_cents: 7900, reason: "Ada's tablet arrived cracked" };
    expect(committedArgs(args, "s")).toEqual({ order_id: "ORD-1", amount_cents: 7900, reason: commitment("s", args.reason) });
    expect(committedArgs({ question: "Where is Ada's parcel?" }, null)).toEqual({ question: "withheld:22" });
  });
});
