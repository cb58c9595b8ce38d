import { describe, expect, it } from "vitest";
import { accessDecision, allowedRoles, isAllowed } from "./access";
import { clientAddress } from "./client-address";
import { NAV_ITEMS, isCurrentNav, navItemsFor } from "./nav";
import { AREAS, ROLES } from "../contracts/roles";

describe("access", () => {
  it("reads an area from AREAS and takes an explicit role list as is", () => {
    expect(allowedRoles("admin")).toEqual(["ADMIN"]);
    expect(allowedRoles(["LEAD"])).toEqual(["LEAD"]);
    expect(isAllowed("REVIEWER", "ledger")).toBe(false);
    expect(isAllowed("SPECIALIST", "ledger")).toBe(true);
    expect(isAllowed("LEAD", ["LEAD", "ADMIN"])).toBe(true);
  });

  it("decides unauthenticated before forbidden", () => {
    expect(accessDecision(null, "queue")).toBe("unauthenticated");
    expect(accessDecision({ role: "REVIEWER" }, "audit")).toBe("forbidden");
    expect(accessDecision({ role: "ADMIN" }, "audit")).toBe("ok");
  });
});

describe("navigation", () => {
  it("shows each role exactly the areas AREAS allows it", () => {
    for (const role of ROLES) {
      const labels = navItemsFor(role).map((i) => i.label);
      const expected = NAV_ITEMS.filter((i) => (AREAS[i.area] as readonly string[]).includes(role)).map((i) => i.label);
      expect(labels).toEqual(expected);
    }
    expect(navItemsFor("REVIEWER").map((i) => i.label)).toEqual(["Queue", "New ticket", "Deliveries", "Policies", "Annotations"]);
    expect(navItemsFor("ADMIN").map((i) => i.label)).toEqual([
      "Queue",
      "New ticket",
      "Ledger",
      "Deliveries",
      "Policies",
      "Annotations",
      "Audit",
      "Evaluations",
      "Autonomy",
      "Admin",
      "Users",
      "Sign-in",
      "Jobs",
    ]);
  });

  it("marks the current entry", () => {
    expect(isCurrentNav("/", "/")).toBe(true);
    expect(isCurrentNav("/", "/ledger")).toBe(false);
    expect(isCurrentNav("/ledger", "/ledger/123")).toBe(true);
    // A deeper entry is the current one on its own pages, not its parent.
    expect(isCurrentNav("/admin", "/admin")).toBe(true);
    expect(isCurrentNav("/admin", "/admin/jobs")).toBe(false);
    expect(isCurrentNav("/admin/jobs", "/admin/jobs")).toBe(true);
    expect(isCurrentNav("/tickets/new", "/tickets/newer")).toBe(false);
  });
});

describe("clientAddress", () => {
  const h = (init: Record<string, string>) => new Headers(init);
  it("reads the one address the server's entry left in X-Forwarded-For, and nothing else", () => {
    expect(clientAddress(h({ "x-forwarded-for": "10.0.0.2" }))).toBe("10.0.0.2");
    expect(clientAddress(h({ "x-forwarded-for": "::ffff:127.0.0.1" }))).toBe("127.0.0.1");
    expect(clientAddress(h({ "x-real-ip": "198.51.100.4" }))).toBeNull();
    expect(clientAddress(h({}))).toBeNull();
    expect(clientAddress(h({ "x-forwarded-for": "x".repeat(100) }))).toBeNull();
  });
});
