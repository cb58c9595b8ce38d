// A migrated in-memory PGlite without migrating each time: each test file's database and the grading
// database (lib/eval/) start from it. PGlite's own start (its initdb: seconds of CPU, several hundred
// MB at its peak) and the migrations cost seconds per database; loading the data directory of a
// database that was migrated once costs a fraction of that. The directory is kept as a tarball in
// node_modules/.cache – uncompressed, about 30 MB: PGlite takes a few hundred ms more to open a
// gzipped one, on every test file's and every grading run's path – named by the PGlite version and
// a hash of every migration's SQL, so a changed or added migration makes a new one and a stale one
// is never loaded. Opened with the extensions
// every embedded database carries (lib/db/pglite.ts). Written whole, renamed into place (cache-files.ts).
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import type { PGlite, PGliteOptions } from "@electric-sql/pglite";
import { newPglite } from "./pglite";
import { migrationSql } from "./migration-files";
import { cacheDir, writeCacheFile } from "./cache-files";

const CACHE_DIR = cacheDir("countersign-db");
const PREFIX = "pglite-migrated-";
/** How the template is made (makeTemplate), hashed into its name beside the migrations: a template
 * made another way is never loaded. */
const TEMPLATE_FORMAT = "no-template-databases";

/** The template's file, made once per process at most; read again for each database (a 30 MB buffer
 * held for the life of the process would be held beside every database opened from it). */
let template: Promise<string> | undefined;

// The package does not export its package.json; its path is fixed by npm.
async function pgliteVersion(): Promise<string> {
  const manifest = await readFile(join(process.cwd(), "node_modules", "@electric-sql", "pglite", "package.json"), "utf8");
  return (JSON.parse(manifest) as { version: string }).version;
}

async function templateFile(): Promise<{ file: string; migrations: { sql: string }[] }> {
  const migrations = await migrationSql();
  const hash = createHash("sha256")
    .update(await pgliteVersion())
    .update(`\0${TEMPLATE_FORMAT}`);
  for (const { name, sql } of migrations) hash.update(`\0${name}\0${sql}`);
  return { file: join(CACHE_DIR, `${PREFIX}${hash.digest("hex").slice(0, 24)}.tar`), migrations };
}

async function makeTemplate(): Promise<string> {
  const { file, migrations } = await templateFile();
  if (existsSync(file)) return file;
  const pglite = newPglite();
  try {
    for (const { sql } of migrations) await pglite.exec(sql);
    await dropTemplateDatabases(pglite);
    const dump = await pglite.dumpDataDir("none");
    await writeCacheFile(file, new Uint8Array(await dump.arrayBuffer()));
    // Older templates (other migrations, another PGlite) are never read again.
    for (const name of await readdir(CACHE_DIR)) {
      if (name.startsWith(PREFIX) && join(CACHE_DIR, name) !== file && !name.endsWith(".partial"))
        await rm(join(CACHE_DIR, name), { force: true });
    }
    return file;
  } finally {
    await pglite.close();
  }
}

/**
 * An in-memory database is only ever the one database it opens with: nothing creates a database from
 * template0 or template1 there (the tests that do run on PostgreSQL). Dropped, they leave the
 * template a third smaller (30 rather than 45 MB), and so every database opened from it: less to
 * read and unpack, and less memory held for each (each is about 7 MB of files in memory).
 */
async function dropTemplateDatabases(pglite: PGlite): Promise<void> {
  for (const name of ["template0", "template1"]) {
    // One statement per call: DROP DATABASE refuses to run in a transaction, and several statements
    // sent together run in one.
    await pglite.query(`ALTER DATABASE ${name} IS_TEMPLATE false`);
    await pglite.query(`DROP DATABASE ${name}`);
  }
  await pglite.query("CHECKPOINT");
}

const SEEDED_PREFIX = "pglite-seeded-";

/** A new in-memory PGlite holding every migration, loaded from the migrated template (with the
 * in-memory settings of newPglite unless `options.startParams` says otherwise). */
export async function migratedPglite(options: Omit<PGliteOptions, "loadDataDir"> = {}): Promise<PGlite> {
  template ??= makeTemplate();
  const pglite = newPglite({ ...options, loadDataDir: new Blob([await readFile(await template)]) });
  await pglite.waitReady;
  return pglite;
}

/**
 * A new in-memory PGlite holding every migration and what `seed` wrote. The first one of a test run
 * (`run`, made by testing/global-setup.ts) is seeded and its data directory kept for the run; later
 * files, and the mutation runs' later runs of a file, load it instead of seeding again: the seed
 * costs seconds, loading a fraction. Written like the template; removed when the run ends.
 */
export async function seededPglite(run: string, name: string, seed: (pglite: PGlite) => Promise<void>): Promise<PGlite> {
  const file = join(CACHE_DIR, `${SEEDED_PREFIX}${run}-${name}.tar`);
  if (existsSync(file)) {
    const pglite = newPglite({ loadDataDir: new Blob([await readFile(file)]) });
    await pglite.waitReady;
    return pglite;
  }
  const pglite = await migratedPglite();
  await seed(pglite);
  const dump = await pglite.dumpDataDir("none");
  await writeCacheFile(file, new Uint8Array(await dump.arrayBuffer()));
  return pglite;
}

/** Removes what seededPglite kept for a test run. */
export async function removeSeeded(run: string): Promise<void> {
  if (!existsSync(CACHE_DIR)) return;
  for (const name of await readdir(CACHE_DIR)) {
    if (name.startsWith(`${SEEDED_PREFIX}${run}-`)) await rm(join(CACHE_DIR, name), { force: true });
  }
}
