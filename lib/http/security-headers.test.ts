import { describe, expect, it } from "vitest";

interface THeaderRule {
  source: string;
  has?: { type: string; key: string; value?: string }[];
  headers: { key: string; value: string }[];
}
import { STATIC_SECURITY_HEADERS, STRICT_TRANSPORT_SECURITY, contentSecurityPolicy, newNonce } from "./security-headers";

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values]),
  );
}

describe("contentSecurityPolicy", () => {
  it("runs only scripts with this response's nonce: no inline or eval escape hatch", () => {
    const policy = directives(contentSecurityPolicy({ nonce: "abc123==" }));
    expect(policy.get("script-src")).toEqual(["'nonce-abc123=='", "'strict-dynamic'", "'self'"]);
    expect(policy.get("script-src")).not.toContain("'unsafe-inline'");
    expect(policy.get("script-src")).not.toContain("'unsafe-eval'");
    expect(policy.get("object-src")).toEqual(["'none'"]);
    expect(policy.get("base-uri")).toEqual(["'none'"]);
  });

  it("lets no page be framed", () => {
    expect(directives(contentSecurityPolicy({ nonce: "n" })).get("frame-ancestors")).toEqual(["'none'"]);
  });

  it("allows eval only under next dev, and upgrades requests only over https", () => {
    expect(directives(contentSecurityPolicy({ nonce: "n", development: true })).get("script-src")).toContain("'unsafe-eval'");
    expect(directives(contentSecurityPolicy({ nonce: "n" })).has("upgrade-insecure-requests")).toBe(false);
    expect(directives(contentSecurityPolicy({ nonce: "n", https: true })).has("upgrade-insecure-requests")).toBe(true);
  });

  it("puts the nonce first in script-src, where Next.js reads it back from the request's header to stamp its own scripts", () => {
    const nonce = newNonce();
    const [first] = directives(contentSecurityPolicy({ nonce })).get("script-src")!;
    // Next's parser (get-script-nonce-from-header) takes the first source of this shape.
    expect(first).toMatch(/^'nonce-([A-Za-z0-9+/_-]+={0,2})'$/);
    expect(first).toBe(`'nonce-${nonce}'`);
  });
});

describe("newNonce", () => {
  it("is fresh every time and long enough not to be guessed", () => {
    const nonces = new Set(Array.from({ length: 1000 }, newNonce));
    expect(nonces.size).toBe(1000);
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
  });
});

describe("next.config.mjs", () => {
  it("sets the static security headers on every path, and HSTS on https", async () => {
    // The config is plain JavaScript (Next reads it before anything is compiled): import it untyped.
    const path: string = "../../next.config.mjs";
    const nextConfig = ((await import(path)) as { default: { headers(): Promise<THeaderRule[]> } }).default;
    const rules = await nextConfig.headers();
    const all = rules.find((r) => r.source === "/:path*" && !r.has);
    expect(Object.fromEntries(all!.headers.map((h) => [h.key, h.value]))).toEqual(STATIC_SECURITY_HEADERS);
    const https = rules.find((r) => r.has?.some((h) => h.type === "header" && h.key === "x-forwarded-proto" && h.value === "https"));
    expect(https?.headers).toEqual([{ key: "Strict-Transport-Security", value: STRICT_TRANSPORT_SECURITY }]);
  });
});
