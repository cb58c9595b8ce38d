import { describe, expect, it } from "vitest";
import { checkActionOrigin, isServerActionRequest, parseOriginSetting } from "./action-origin";

const action = (headers: Record<string, string>, allowedOrigins: string[] = [], extra: { method?: string; pathname?: string } = {}) =>
  checkActionOrigin({
    method: extra.method ?? "POST",
    pathname: extra.pathname ?? "/tickets/abc",
    headers: new Headers({ "next-action": "7f00aa", ...headers }),
    allowedOrigins,
  });

describe("isServerActionRequest", () => {
  it.each([
    ["POST", "/tickets/abc", { "next-action": "7f00aa" }, true],
    // A form posted before JavaScript loaded: the action's id is in the body, not a header.
    ["POST", "/tickets/abc", {}, true],
    ["PUT", "/", {}, true],
    ["GET", "/tickets/abc", {}, false],
    ["GET", "/tickets/abc", { "next-action": "7f00aa" }, false],
    ["HEAD", "/", {}, false],
    ["POST", "/api/intake/tickets", {}, false],
    ["POST", "/api/auth/signout", {}, false],
    ["POST", "/api/queue", { "next-action": "7f00aa" }, true],
  ] as const)("%s %s %o → %s", (method, pathname, headers, expected) => {
    expect(isServerActionRequest({ method, pathname, headers: new Headers(headers) })).toBe(expected);
  });
});

describe("checkActionOrigin, with no origin configured", () => {
  it("allows a page of the host the request was addressed to", () => {
    expect(action({ host: "127.0.0.1:3000", origin: "http://127.0.0.1:3000" })).toEqual({ kind: "allowed" });
    expect(action({ host: "App.Example", origin: "https://app.example" })).toEqual({ kind: "allowed" });
  });

  it("refuses another site, another port, and an origin that is not one", () => {
    expect(action({ host: "127.0.0.1:3000", origin: "http://evil.example" })).toEqual({
      kind: "refused",
      reason: "foreign_origin",
      origin: "http://evil.example",
    });
    expect(action({ host: "127.0.0.1:3000", origin: "http://127.0.0.1:3001" })).toMatchObject({
      kind: "refused",
      reason: "foreign_origin",
    });
    expect(action({ host: "127.0.0.1:3000", origin: "chrome-extension://abc" })).toMatchObject({
      kind: "refused",
      reason: "foreign_origin",
    });
    expect(action({ host: "127.0.0.1:3000", origin: "not a url" })).toMatchObject({ kind: "refused", reason: "foreign_origin" });
  });

  it("refuses a call without an Origin, or with the opaque one", () => {
    expect(action({ host: "127.0.0.1:3000" })).toEqual({ kind: "refused", reason: "missing_origin", origin: null });
    expect(action({ host: "127.0.0.1:3000", origin: "null" })).toMatchObject({ kind: "refused", reason: "missing_origin" });
  });

  it("compares with X-Forwarded-Host when it is there: the entry of the server left it only when a trusted proxy set it", () => {
    expect(
      action({ host: "10.0.0.5:3000", "x-forwarded-host": "countersign.example.com", origin: "https://countersign.example.com" }),
    ).toEqual({ kind: "allowed" });
    expect(action({ host: "10.0.0.5:3000", "x-forwarded-host": "countersign.example.com", origin: "http://10.0.0.5:3000" })).toMatchObject({
      kind: "refused",
    });
  });

  it("lets requests that are not actions through untouched", () => {
    expect(action({ origin: "http://evil.example" }, [], { method: "GET" })).toEqual({ kind: "not_an_action" });
  });
});

describe("checkActionOrigin, with origins configured", () => {
  const allowed = ["https://countersign.example.com", "http://support.example:8080"];

  it("allows exactly those origins: scheme, host and port", () => {
    expect(action({ host: "10.0.0.5:3000", origin: "https://countersign.example.com" }, allowed)).toEqual({ kind: "allowed" });
    expect(action({ host: "10.0.0.5:3000", origin: "http://support.example:8080" }, allowed)).toEqual({ kind: "allowed" });
    expect(action({ host: "countersign.example.com", origin: "http://countersign.example.com" }, allowed)).toMatchObject({
      kind: "refused",
      reason: "foreign_origin",
    });
    expect(action({ host: "10.0.0.5:3000", origin: "https://support.example:8080" }, allowed)).toMatchObject({ kind: "refused" });
  });

  it("no longer trusts the Host header: whoever addresses the server by another name is refused", () => {
    expect(action({ host: "evil.example", origin: "http://evil.example" }, allowed)).toMatchObject({
      kind: "refused",
      reason: "foreign_origin",
    });
  });
});

describe("parseOriginSetting", () => {
  it.each([
    ["https://countersign.example.com", "https://countersign.example.com"],
    ["https://countersign.example.com/", "https://countersign.example.com"],
    ["HTTPS://Countersign.Example.com:443", "https://countersign.example.com"],
    ["http://127.0.0.1:3000", "http://127.0.0.1:3000"],
    ["https://countersign.example.com/queue", null],
    ["https://countersign.example.com/?a=1", null],
    ["https://countersign.example.com/#x", null],
    ["https://u:p@countersign.example.com", null],
    ["ftp://countersign.example.com", null],
    ["countersign.example.com", null],
  ])("%s → %s", (value, expected) => {
    expect(parseOriginSetting(value)).toBe(expected);
  });
});
