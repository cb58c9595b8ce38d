import { defineConfig } from "prisma/config";

// Used by the stock Prisma CLI (`npx prisma migrate deploy` on a machine that can fetch the native
// schema engine) and by `prisma generate`. The app and `npm run db:*` never need it: they use the
// WASM schema engine through scripts/db.ts.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: {
    url: process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/countersign",
  },
});
