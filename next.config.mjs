/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite loads its .wasm relative to its own module URL; bundling breaks that, and the
  // database drivers gain nothing from being bundled.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "@prisma/adapter-pg", "pg"],
  poweredByHeader: false,
  // The test suite builds into its own folder so that it never replaces the build `npm start` serves.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  typedRoutes: false,
};

export default nextConfig;
