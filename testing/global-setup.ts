// Runs once before the Vitest suites. On PostgreSQL (DATABASE_URL set) it migrates a template
// database that every test file clones (CREATE DATABASE … TEMPLATE), so each file gets a fresh,
// migrated database in milliseconds. On PGlite each file loads an in-memory database from a data
// directory migrated once and cached (lib/db/migrated-template.ts).
// With MIGRATION_DATABASE_URL set, the owner creates, migrates and drops the databases, and grants
// DATABASE_URL's role what the app uses; the clones keep those grants, so the code under test runs
// with exactly the app's privileges.
import { randomBytes } from "node:crypto";
import type { TestProject } from "vitest/node";
import { deployMigrations } from "../lib/db/migrate";
import { adminQuery, dropDatabasesStartingWith, testDatabaseBase, testFileDatabasePrefix, withDatabase } from "./postgres";
import { removeSeeded } from "../lib/db/migrated-template";

export default async function setup(project: TestProject) {
  // Names what this run keeps on disk for itself (the seeded PGlite data directories).
  const run = randomBytes(6).toString("hex");
  project.provide("testRun", run);
  const url = process.env.DATABASE_URL;
  if (!url) return () => removeSeeded(run);
  const template = `${testDatabaseBase(url)}_tpl`;
  await adminQuery(url, `DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
  await adminQuery(url, `CREATE DATABASE "${template}"`);
  await deployMigrations({ kind: "postgres", url: withDatabase(url, template) });
  project.provide("pgTemplate", template);
  return async () => {
    // A file that stopped before closing its database (a timeout in its hooks, a crash) leaves it
    // behind: said, and dropped with the template.
    const left = await dropDatabasesStartingWith(url, testFileDatabasePrefix(url, run));
    if (left.length) console.warn(`Dropped ${left.length} test database(s) a test file left behind: ${left.join(", ")}`);
    await adminQuery(url, `DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    pgTemplate?: string;
    testRun: string;
  }
}
