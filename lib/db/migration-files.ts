// The migrations this build ships: prisma/migrations/<name>/migration.sql, in name order.
// Paths are written out in full at each use so that the build's file tracing stays scoped to them.
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

export const MIGRATIONS_DIR = join(process.cwd(), "prisma", "migrations");

export async function migrationNames(): Promise<string[]> {
  if (!existsSync(join(process.cwd(), "prisma", "migrations"))) return [];
  const entries = await readdir(join(process.cwd(), "prisma", "migrations"), { withFileTypes: true });
  return entries
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

export async function migrationSql(): Promise<{ name: string; sql: string }[]> {
  return Promise.all(
    (await migrationNames()).map(async (name) => ({
      name,
      sql: await readFile(join(process.cwd(), "prisma", "migrations", name, "migration.sql"), "utf8"),
    })),
  );
}
