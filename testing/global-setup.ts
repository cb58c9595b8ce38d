// Runs once before the Vitest suites. On PostgreSQL (DATABASE_URL set) it migrates a template
// database that every test file clones (CREATE DATABASE … TEMPLATE), so each file gets a fresh,
// migrated database in milliseconds. On PGlite each file migrates its own in-memory database.
import type { TestProject } from "vitest/node";
import { deployMigrations } from "../lib/db/migrate";
import { adminQuery, testDatabaseBase } from "./postgres";

export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  if (!url) return;
  const template = `${testDatabaseBase(url)}_tpl`;
  await adminQuery(url, `DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
  await adminQuery(url, `CREATE DATABASE "${template}"`);
  const templateUrl = new URL(url);
  templateUrl.pathname = `/${template}`;
  await deployMigrations({ kind: "postgres", url: templateUrl.toString() });
  project.provide("pgTemplate", template);
  return async () => {
    await adminQuery(url, `DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    pgTemplate?: string;
  }
}
