import { describe, expect, it } from "vitest";
import { PUBLIC_PATHS, isPublicPath, proxyDecision, safeCallbackUrl } from "./public-paths";

describe("isPublicPath", () => {
  it.each([
    "/signin",
    "/set-password/abc",
    "/api/health",
    "/api/auth/session",
    "/api/auth/callback/credentials",
    "/api/intake/tickets",
    "/api/outbox",
    "/api/audit/checkpoints",
    "/api/orders/ORD-1001",
    "/api/customers/CUS-001",
    "/api/payments/stripe",
    "/api/helpdesk/zendesk",
    "/api/helpdesk/email",
    "/api/evals/receipts",
  ])("%s is public", (path) => expect(isPublicPath(path)).toBe(true));

  it.each([
    "/",
    "/ledger",
    "/signin-help",
    "/set-passwords",
    "/api/authority",
    "/api/healthz",
    "/api/outboxes",
    "/api/audit",
    "/api/audit/checkpoints-all",
    "/api/tickets",
    "/api/ordersx",
    "/api/customers-export",
    "/api/payments",
    "/api/payments/stripe-other",
    "/api/evals",
    "/api/evals/receipts-all",
    "/admin/api/health",
  ])("%s is not public", (path) => expect(isPublicPath(path)).toBe(false));

  it("every entry is an absolute path without a trailing slash", () => {
    for (const p of PUBLIC_PATHS) expect(p).toMatch(/^\/[^?#]*[^/]$/);
  });
});

describe("proxyDecision", () => {
  const visit = (pathname: string, extra: Partial<Parameters<typeof proxyDecision>[0]> = {}) =>
    proxyDecision({ pathname, search: "", signedIn: false, serverAction: false, ...extra });

  it("lets signed-in visitors and public paths through", () => {
    expect(visit("/ledger", { signedIn: true })).toEqual({ kind: "next" });
    expect(visit("/signin")).toEqual({ kind: "next" });
    expect(visit("/api/health")).toEqual({ kind: "next" });
  });

  it("sends signed-out page visits to /signin with where they were going", () => {
    expect(visit("/")).toEqual({ kind: "redirect", location: "/signin" });
    expect(visit("/ledger", { search: "?order=ord_1" })).toEqual({
      kind: "redirect",
      location: "/signin?callbackUrl=%2Fledger%3Forder%3Dord_1",
    });
  });

  it("answers signed-out API calls with 401 rather than a redirect", () => {
    expect(visit("/api/tickets")).toEqual({ kind: "unauthenticated" });
  });

  it("lets server action calls reach their own wrapper", () => {
    expect(visit("/ledger", { serverAction: true })).toEqual({ kind: "next" });
  });
});

describe("safeCallbackUrl", () => {
  it.each([
    ["/ledger", "/ledger"],
    ["/tickets/abc?tab=trace#step-3", "/tickets/abc?tab=trace#step-3"],
    [undefined, "/"],
    ["", "/"],
    ["https://evil.example/", "/"],
    ["//evil.example/x", "/"],
    ["/\\evil.example", "/"],
    ["javascript:alert(1)", "/"],
    ["/signin", "/"],
    ["/signin?callbackUrl=/signin", "/"],
    ["ledger", "/"],
  ])("%s → %s", (input, expected) => expect(safeCallbackUrl(input)).toBe(expected));
});
