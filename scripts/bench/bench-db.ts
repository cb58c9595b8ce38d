// The bench's own database: everything the write and HTTP figures write goes here, never into the
// configured database. On PostgreSQL a sibling database <name>_bench, dropped and created anew; on the
// embedded database a PGlite directory in the system's temporary folder. Both are migrated with the
// project's migrations and seeded with the demo data, and removed at the end.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb, type DbHandle, type DbTarget } from "../../lib/db";
import { deployMigrations } from "../../lib/db/migrate";
import { seedDemo } from "../../prisma/seed/demo";
import { adminQuery, testDatabaseBase, withDatabase } from "../../testing/postgres";
import { progress } from "./report";

export interface TBenchDb {
  kind: "postgres" | "pglite";
  target: DbTarget;
  /** PostgreSQL: the bench database's URL. */
  url?: string;
  /** Embedded: the PGlite directory a server started on it must use. */
  dir?: string;
  /** Where it lives, for the output. */
  label: string;
  /** Opens a handle (one process at a time on the embedded database: close it before a server starts). */
  open(max?: number): DbHandle;
  drop(): Promise<void>;
}

/** `suffix` names the database beside the configured one: <name>_<suffix>. */
export async function createBenchDb(configuredUrl: string | undefined, suffix = "bench"): Promise<TBenchDb> {
  let db: TBenchDb;
  if (configuredUrl) {
    const name = `${testDatabaseBase(configuredUrl)}_${suffix}`;
    const url = withDatabase(configuredUrl, name);
    await adminQuery(configuredUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await adminQuery(configuredUrl, `CREATE DATABASE "${name}"`);
    const target: DbTarget = { kind: "postgres", url };
    db = {
      kind: "postgres",
      target,
      url,
      label: `PostgreSQL database ${name}`,
      open: (max) => openDb({ kind: "postgres", url, max: max ?? 10 }),
      drop: () => adminQuery(configuredUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
    };
  } else {
    const root = mkdtempSync(join(tmpdir(), "countersign-bench-"));
    const dir = join(root, "pglite");
    const target: DbTarget = { kind: "pglite", dir };
    db = {
      kind: "pglite",
      target,
      dir,
      label: `embedded database in ${dir}`,
      open: () => openDb(target),
      drop: async () => rmSync(root, { recursive: true, force: true }),
    };
  }
  progress(`bench database: ${db.label}: migrating and seeding the demo data…`);
  await deployMigrations(db.target);
  const handle = db.open();
  try {
    progress(`seeded ${await seedDemo(handle.client)}`);
  } finally {
    await handle.close();
  }
  return db;
}
