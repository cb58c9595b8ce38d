import { describe, expect, it } from "vitest";
import { fieldSummary, readableFields } from "./trace-fields";

// As lookup_order and propose_refund store them (lib/agent/tools.ts).
const lookupResult = {
  found: true,
  order: {
    id: "ORD-1001",
    item: "Aurora 10-inch tablet",
    category: "electronics",
    amountCents: 7900,
    currency: "USD",
    deliveredAt: "2026-11-11T11:15:36.492Z",
    customerFlagged: false,
  },
};
const proposeArgs = { reason: "Arrived damaged; within the policy's return window.", amount_cents: 7900, order_id: "ORD-1001" };

describe("readableFields", () => {
  it("puts the order, the amount and the currency first, nested or not, and keeps the rest in their order", () => {
    const fields = readableFields(lookupResult);
    expect(fields.map((f) => f.path)).toEqual([
      "order.id",
      "order.amountCents",
      "order.currency",
      "found",
      "order.item",
      "order.category",
      "order.deliveredAt",
      "order.customerFlagged",
    ]);
    expect(fields.filter((f) => f.leading).map((f) => f.path)).toEqual(["order.id", "order.amountCents", "order.currency", "found"]);
    expect(fields.find((f) => f.path === "order.customerFlagged")).toEqual({
      path: "order.customerFlagged",
      text: "false",
      leading: false,
    });
  });

  it("reads snake_case arguments by their camelCase names", () => {
    expect(readableFields(proposeArgs).map((f) => f.path)).toEqual(["order_id", "amount_cents", "reason"]);
  });

  it("shows strings as they are, lists of strings on one line, and objects in lists at their index", () => {
    const fields = readableFields({
      status: "grounded",
      citations: ["return-policy-us@2", "shipping-policy@1"],
      passages: [{ citation: "return-policy-us@2", text: "Line one\nline two" }],
    });
    expect(fields).toEqual([
      { path: "passages[0].citation", text: "return-policy-us@2", leading: true },
      { path: "citations", text: "return-policy-us@2, shipping-policy@1", leading: true },
      { path: "status", text: "grounded", leading: true },
      { path: "passages[0].text", text: "Line one\nline two", leading: false },
    ]);
  });

  it("keeps a value that is not an object, an empty object and null as one field", () => {
    expect(readableFields("plain")).toEqual([{ path: "", text: "plain", leading: false }]);
    expect(readableFields({})).toEqual([{ path: "", text: "{}", leading: false }]);
    expect(readableFields(null)).toEqual([{ path: "", text: "null", leading: false }]);
    expect(readableFields({ detail: null })).toEqual([{ path: "detail", text: "null", leading: false }]);
  });

  it("stops at a depth and shows what is below as JSON", () => {
    const deep = { a: { b: { c: { d: { e: 1 } } } } };
    expect(readableFields(deep)).toEqual([{ path: "a.b.c.d", text: '{"e":1}', leading: false }]);
  });
});

describe("fieldSummary", () => {
  it("names the first leading fields on one line, long values cut", () => {
    expect(fieldSummary(readableFields(lookupResult))).toBe("order.id ORD-1001 · order.amountCents 7900 · order.currency USD");
    expect(fieldSummary(readableFields({ question: "q".repeat(80) }))).toBe(`question ${"q".repeat(59)}…`);
    expect(fieldSummary(readableFields({ text: "no leading field here" }))).toBe("");
    const evidence = {
      question: "refund for a cracked screen",
      passages: [{ citation: "return-policy-us@2" }, { citation: "return-policy-us@2" }],
      status: "grounded",
    };
    expect(fieldSummary(readableFields(evidence))).toBe("question refund for a cracked screen · status grounded");
  });
});
