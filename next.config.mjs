/** @type {import('next').NextConfig} */
const nextConfig = {
  // A separate build directory per purpose (`npm test` builds into .next-test), so a test build
  // never replaces the build `npm start` serves.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // PGlite loads its .wasm relative to its own module URL; bundling breaks that, and the
  // database drivers gain nothing from being bundled (nor the rate limiter, whose index loads every
  // store it ships, nor the webhook signatures).
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "@prisma/adapter-pg", "pg", "rate-limiter-flexible", "standardwebhooks"],
  poweredByHeader: false,
  typedRoutes: false,
  experimental: {
    // forbidden() and app/forbidden.tsx: requireRole answers a wrong role with a real 403 page.
    authInterrupts: true,
  },
};

export default nextConfig;
