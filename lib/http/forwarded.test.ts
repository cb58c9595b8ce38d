import { describe, expect, it } from "vitest";
import { normaliseForwarded, resolveForwarded } from "./forwarded";

describe("resolveForwarded", () => {
  const headers = { "x-forwarded-for": "198.51.100.7, 203.0.113.9", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };

  it("with no trusted proxy, the socket is the client and every forwarded header is ignored", () => {
    expect(resolveForwarded({ socketAddress: "::ffff:10.0.0.5", headers, trustedHops: 0 })).toEqual({
      clientAddress: "10.0.0.5",
      host: null,
      proto: null,
    });
  });

  it("with one trusted proxy, the entry that proxy appended is the client, and its host and scheme stand", () => {
    expect(resolveForwarded({ socketAddress: "10.0.0.2", headers, trustedHops: 1 })).toEqual({
      clientAddress: "203.0.113.9",
      host: "evil.example",
      proto: "https",
    });
  });

  it("with two, the one before it; a client's own entries to the left are never reached", () => {
    expect(
      resolveForwarded({ socketAddress: "10.0.0.2", headers: { "x-forwarded-for": "1.1.1.1, 198.51.100.7, 203.0.113.9" }, trustedHops: 2 })
        .clientAddress,
    ).toBe("198.51.100.7");
  });

  it("rotating X-Forwarded-For changes nothing without a trusted proxy", () => {
    const seen = new Set(
      ["1.2.3.4", "5.6.7.8", "9.9.9.9"].map(
        (spoof) => resolveForwarded({ socketAddress: "127.0.0.1", headers: { "x-forwarded-for": spoof }, trustedHops: 0 }).clientAddress,
      ),
    );
    expect([...seen]).toEqual(["127.0.0.1"]);
  });

  it("refuses a host that could not be one", () => {
    expect(resolveForwarded({ socketAddress: "10.0.0.2", headers: { "x-forwarded-host": "a b/c" }, trustedHops: 1 }).host).toBeNull();
  });
});

describe("normaliseForwarded", () => {
  it("leaves exactly the resolved address and drops what a client wrote", () => {
    const req = {
      headers: {
        "x-forwarded-for": "6.6.6.6",
        "x-forwarded-host": "evil.example",
        "x-real-ip": "6.6.6.6",
        forwarded: "for=6.6.6.6",
        host: "app.example",
      },
      socket: { remoteAddress: "127.0.0.1" },
    };
    normaliseForwarded(req, 0);
    expect(req.headers).toEqual({ "x-forwarded-for": "127.0.0.1", host: "app.example" });
  });
});
