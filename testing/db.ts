// A fresh, migrated database for one test file: in-memory PGlite by default, loaded from a data
// directory migrated once (lib/db/migrated-template.ts), or a clone of the migrated template database on
// PostgreSQL when DATABASE_URL is set. Real databases, never a mocked client.
// On PostgreSQL the client connects as DATABASE_URL's role; the clone, made by the owner
// (MIGRATION_DATABASE_URL), keeps the template's grants.
import { randomBytes } from "node:crypto";
import type { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, inject } from "vitest";
import { openDb, useDb, closeDb, type DbHandle } from "../lib/db";
import { migratedPglite, seededPglite } from "../lib/db/migrated-template";
import { adminQuery, ownerUrl, testFileDatabasePrefix, withDatabase } from "./postgres";

export interface TestDb extends DbHandle {
  /** A postgres URL for this database (PostgreSQL only): for a second client or a raw connection. */
  url?: string;
  /** The same database as the owner of its tables (PostgreSQL only; the same as `url` when the app
   * connects as the owner): for what only the owner, or a superuser, may do. */
  ownerUrl?: string;
  pglite?: PGlite;
}

/** Fills a new database with the rows a test file starts from (the demo data, say); on PGlite, once
 * per test run and named by the function's name (lib/db/migrated-template.ts, seededPglite). */
export type TSeed = (client: DbHandle["client"]) => Promise<unknown>;

export async function createTestDb(seed?: TSeed): Promise<TestDb> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const template = inject("pgTemplate");
    if (!template) throw new Error("The PostgreSQL template database was not prepared (testing/global-setup.ts).");
    const name = `${testFileDatabasePrefix(url, inject("testRun"))}${randomBytes(5).toString("hex")}`;
    await adminQuery(url, `CREATE DATABASE "${name}" TEMPLATE "${template}"`);
    const dbUrl = withDatabase(url, name);
    const handle = openDb({ kind: "postgres", url: dbUrl, max: 25 });
    if (seed) await seed(handle.client);
    return {
      ...handle,
      url: dbUrl,
      ownerUrl: ownerUrl(dbUrl),
      close: async () => {
        await handle.close();
        await adminQuery(url, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      },
    };
  }
  let seededHandle: DbHandle | undefined;
  const pglite = seed
    ? await seededPglite(inject("testRun"), seed.name, async (fresh) => {
        seededHandle = openDb({ kind: "pglite", pglite: fresh });
        await seed(seededHandle.client);
      })
    : await migratedPglite();
  const handle = seededHandle ?? openDb({ kind: "pglite", pglite });
  return {
    ...handle,
    pglite,
    close: async () => {
      await handle.close();
      await pglite.close();
    },
  };
}

/**
 * Runs `fn` with a client connected as the owner of the tables: for what the app's role may not do
 * and a test must, such as changing history behind the triggers' back. On PGlite, and when the app
 * connects as the owner, that is the same database as the test's own client.
 */
export async function asOwner<T>(db: TestDb, fn: (client: DbHandle["client"]) => Promise<T>): Promise<T> {
  if (!db.ownerUrl) return fn(db.client);
  const owner = openDb({ kind: "postgres", url: db.ownerUrl, max: 2 });
  try {
    return await fn(owner.client);
  } finally {
    await owner.close();
  }
}

/**
 * Gives the calling test file its own database, installed as the process-wide db() for the file,
 * filled by `seed` when one is given.
 * Returns a getter: the handle exists only once beforeAll has run.
 */
export function useTestDb(seed?: TSeed): () => TestDb {
  let handle: TestDb | undefined;
  beforeAll(async () => {
    handle = await createTestDb(seed);
    useDb(handle);
  });
  afterAll(async () => {
    await closeDb();
  });
  return () => {
    if (!handle) throw new Error("useTestDb(): the database is ready only inside tests and hooks");
    return handle;
  };
}
