import { describe, expect, it } from "vitest";
import { validateDecision } from "./validate-decision";

const FORBIDDEN = ["issue_refund", "send_email"];
const check = (raw: unknown) => validateDecision(raw, FORBIDDEN);

describe("validateDecision", () => {
  it("accepts an allowlisted action with exactly its arguments, and returns the parsed arguments", () => {
    expect(check({ action: "lookup_order", args: { order_id: "ORD-1001" } })).toEqual({
      ok: true,
      action: { action: "lookup_order", args: { order_id: "ORD-1001" } },
    });
    expect(check({ action: "draft_reply", args: {} })).toEqual({ ok: true, action: { action: "draft_reply", args: {} } });
    // `args` may be left out for an action that takes none.
    expect(check({ action: "draft_reply" })).toEqual({ ok: true, action: { action: "draft_reply", args: {} } });
  });

  it.each([
    ["null", null],
    ["undefined", undefined],
    ["a number", 7],
    ["an array", [{ action: "draft_reply", args: {} }]],
    ["a string", "draft_reply"],
    ["an object with another prototype", Object.assign(Object.create({ inherited: true }) as object, { action: "draft_reply", args: {} })],
  ])("refuses a decision that is not a plain object (%s)", (_label, raw) => {
    expect(check(raw)).toEqual({ ok: false, reason: "invalid_decision", detail: "the decision is not an object" });
  });

  it("refuses fields beside action and args, naming them", () => {
    expect(check({ action: "draft_reply", args: {}, thought: "x", amount: 1 })).toEqual({
      ok: false,
      reason: "invalid_decision",
      detail: "unexpected decision fields: thought, amount",
    });
  });

  it.each([
    ["missing", {}],
    ["empty", { action: "" }],
    ["not a string", { action: 7 }],
  ])("refuses an action that is %s", (_label, raw) => {
    expect(check(raw)).toEqual({ ok: false, reason: "invalid_decision", detail: "`action` is not a non-empty string" });
  });

  it("refuses a forbidden action before looking at the allowlist or the arguments", () => {
    expect(check({ action: "issue_refund", args: "nonsense" })).toEqual({
      ok: false,
      reason: "forbidden_action",
      detail: "issue_refund is forbidden to the agent",
      action: "issue_refund",
    });
  });

  it("refuses an action off the allowlist, including an inherited property's name, with the name cut to 80 characters", () => {
    expect(check({ action: "toString", args: {} })).toEqual({
      ok: false,
      reason: "invalid_action",
      detail: "toString is not an allowlisted action",
      action: "toString",
    });
    const long = "x".repeat(100);
    expect(check({ action: long, args: {} })).toEqual({
      ok: false,
      reason: "invalid_action",
      detail: `${"x".repeat(80)} is not an allowlisted action`,
      action: "x".repeat(80),
    });
  });

  it.each([
    ["an array", []],
    ["null", null],
    ["a string", "ORD-1"],
  ])("refuses args that are %s", (_label, args) => {
    expect(check({ action: "lookup_order", args })).toEqual({
      ok: false,
      reason: "invalid_arguments",
      detail: "`args` is not an object",
      action: "lookup_order",
    });
  });

  it("names missing arguments, an argument given as undefined among them", () => {
    expect(check({ action: "propose_refund", args: { order_id: "ORD-1", amount_cents: undefined } })).toEqual({
      ok: false,
      reason: "missing_arguments",
      detail: "missing: amount_cents, reason",
      action: "propose_refund",
    });
  });

  it("names unexpected arguments, at most ten", () => {
    const extra = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`k${i}`, i]));
    expect(check({ action: "lookup_order", args: { order_id: "ORD-1", ...extra } })).toEqual({
      ok: false,
      reason: "unexpected_arguments",
      detail: `unexpected: ${Array.from({ length: 10 }, (_, i) => `k${i}`).join(", ")}`,
      action: "lookup_order",
    });
  });

  it("tells a wrong type from a value out of its limits, preferring the wrong type", () => {
    const typed = check({ action: "propose_refund", args: { order_id: "ORD-1", amount_cents: "100", reason: "no" } });
    expect(typed).toMatchObject({ ok: false, reason: "invalid_argument_types", action: "propose_refund" });
    expect(typed.ok === false && typed.detail.startsWith("amount_cents: ")).toBe(true);
    const limits = check({ action: "propose_refund", args: { order_id: "ORD-1", amount_cents: -5, reason: "cracked" } });
    expect(limits).toMatchObject({ ok: false, reason: "invalid_arguments", action: "propose_refund" });
    expect(limits.ok === false && limits.detail.startsWith("amount_cents: ")).toBe(true);
  });
});
