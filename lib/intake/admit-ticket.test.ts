import { describe, expect, it } from "vitest";
import { admitTicket } from "./admit-ticket";
import { classifyTicket } from "./builtin-bundle";
import { signRoute } from "./route-signature";

const KEY = "k".repeat(32);
const PINNED = { bundleVersion: "intake-rules-2026.11", key: KEY };
const claim = { ticketId: "7f1d4c1e-0000-4000-8000-000000000001", route: "guarded_agent" as const, bundleVersion: PINNED.bundleVersion };

describe("admitTicket", () => {
  it("admits a guarded_agent route signed by the pinned bundle", () => {
    expect(admitTicket({ ...claim, signature: signRoute(claim, KEY) }, PINNED)).toEqual({ admission: "admitted", reason: null });
  });

  it("bypasses a route from another bundle before looking at its signature", () => {
    const stale = { ...claim, bundleVersion: "intake-rules-2026.08" };
    expect(admitTicket({ ...stale, signature: signRoute(stale, KEY) }, PINNED)).toEqual({
      admission: "bypassed",
      reason: "stale_intake_bundle",
    });
  });

  it.each([
    ["missing", null],
    ["malformed", "not-hex"],
    ["signed with another key", signRoute(claim, "x".repeat(32))],
    ["moved from another ticket", signRoute({ ...claim, ticketId: "other" }, KEY)],
    ["relabelled from human_review_now", signRoute({ ...claim, route: "human_review_now" }, KEY)],
  ])("bypasses an unverified route (%s signature)", (_label, signature) => {
    expect(admitTicket({ ...claim, signature }, PINNED)).toEqual({ admission: "bypassed", reason: "unverified_route" });
  });

  it("bypasses a verified human_review_now route", () => {
    const human = { ...claim, route: "human_review_now" as const };
    expect(admitTicket({ ...human, signature: signRoute(human, KEY) }, PINNED)).toEqual({
      admission: "bypassed",
      reason: "classifier_human_review",
    });
  });
});

describe("classifyTicket (built-in bundle)", () => {
  it.each([
    ["I can't log in to my account", "account_access"],
    ["Please change my shipping address to 5 Elm St", "address_change"],
    ["I will file a chargeback with my bank", "chargeback_or_legal"],
    ["My lawyer will hear about this", "chargeback_or_legal"],
    ["You idiots broke it", "abuse"],
  ])("sends high-risk intake to a person: %s", (body, risk) => {
    expect(classifyTicket({ subject: "Help", body })).toEqual({ route: "human_review_now", risks: [risk] });
  });

  it("lets an ordinary refund question reach the agent", () => {
    expect(classifyTicket({ subject: "Cracked tablet", body: "My tablet arrived with a cracked screen. Can I get a refund?" })).toEqual({
      route: "guarded_agent",
      risks: [],
    });
  });
});
