import { describe, expect, it } from "vitest";
import { routeClaimId, signRoute, verifyRouteSignature } from "./route-signature";

const KEY = "k".repeat(32);
const claim = { ticketId: "ext-4411", route: "guarded_agent" as const, bundleVersion: "intake-rules-2026.11" };
const signature = signRoute(claim, KEY);

describe("verifyRouteSignature", () => {
  it("accepts the bundle's own signature of the claim", () => {
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyRouteSignature(claim, signature, KEY)).toBe(true);
  });

  it.each([
    ["trailing junk", `${signature}00`],
    ["a trailing newline", `${signature}\n`],
    ["leading junk", `00${signature}`],
    ["upper-case hex", signature.toUpperCase()],
    ["one character short", signature.slice(0, 63)],
    ["empty", ""],
    ["missing", null],
    ["undefined", undefined],
  ])("refuses the signature with %s", (_label, given) => {
    expect(verifyRouteSignature(claim, given, KEY)).toBe(false);
  });

  it.each([
    ["another ticket", { ...claim, ticketId: "ext-4412" }],
    ["another route", { ...claim, route: "human_review_now" as const }],
    ["another bundle", { ...claim, bundleVersion: "intake-rules-2026.08" }],
  ])("refuses a signature moved to %s", (_label, moved) => {
    expect(verifyRouteSignature(moved, signature, KEY)).toBe(false);
  });
});

describe("routeClaimId", () => {
  it("is the helpdesk's id when there is one, our own otherwise", () => {
    expect(routeClaimId({ id: "uuid-1", externalId: "ext-1" })).toBe("ext-1");
    expect(routeClaimId({ id: "uuid-1", externalId: null })).toBe("uuid-1");
    expect(routeClaimId({ id: "uuid-1" })).toBe("uuid-1");
  });
});
