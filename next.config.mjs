// Headers every response carries, the ones proxy.ts never sees included (build output, images, icons).
// The Content-Security-Policy is not here: it needs a fresh nonce per response, so the proxy sets it.
// Kept equal to STATIC_SECURITY_HEADERS in lib/http/security-headers.ts (its test compares them).
const SECURITY_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), hid=(), bluetooth=(), browsing-topics=()",
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
};

/**
 * The hosts of APP_URL and ALLOWED_ORIGINS, for Next's own origin check of server actions, which runs
 * after the proxy's (lib/http/action-origin.ts) and would otherwise refuse an allowed origin whose
 * host differs from the Host header. Read when the server starts; lib/env.ts validates the settings
 * and stops the start on a bad one, so anything unparsable is skipped here.
 */
function configuredActionHosts() {
  const entries = [process.env.APP_URL ?? "", ...(process.env.ALLOWED_ORIGINS ?? "").split(",")];
  const hosts = [];
  for (const entry of entries.map((e) => e.trim()).filter(Boolean)) {
    try {
      hosts.push(new URL(entry).host);
    } catch {
      // reported by lib/env.ts
    }
  }
  return hosts;
}

/** @type {import('next').NextConfig} */
const nextConfig = {
  // A separate build directory per purpose (`npm test` builds into .next-test), so a test build
  // never replaces the build `npm start` serves.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // The test build comes after `npm test`'s own typecheck step (tsc --noEmit over the whole
  // project, tests included), so checking again inside the build would only repeat it (about 30 s).
  typescript: { ignoreBuildErrors: process.env.NEXT_DIST_DIR === ".next-test" },
  // PGlite loads its .wasm relative to its own module URL; bundling breaks that, and the
  // database drivers gain nothing from being bundled (nor the rate limiter, whose index loads every
  // store it ships, nor the webhook signatures).
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "@prisma/adapter-pg",
    "pg",
    "rate-limiter-flexible",
    "standardwebhooks",
  ],
  poweredByHeader: false,
  typedRoutes: false,
  experimental: {
    // forbidden() and app/forbidden.tsx: requireRole answers a wrong role with a real 403 page.
    authInterrupts: true,
    serverActions: {
      allowedOrigins: configuredActionHosts(),
      // The largest body any action takes: an upload of policy documents on /documents (1 MB by
      // default). The form checks its files against this before sending them
      // (app/(app)/documents/import-limits.ts, whose test holds the two equal).
      bodySizeLimit: "4mb",
    },
  },
  async headers() {
    return [
      { source: "/:path*", headers: Object.entries(SECURITY_HEADERS).map(([key, value]) => ({ key, value })) },
      // Only a trusted proxy leaves X-Forwarded-Proto (lib/http/forwarded.ts); a client's is dropped.
      {
        source: "/:path*",
        has: [{ type: "header", key: "x-forwarded-proto", value: "https" }],
        headers: [{ key: "Strict-Transport-Security", value: "max-age=63072000; includeSubDomains" }],
      },
    ];
  },
};

export default nextConfig;
