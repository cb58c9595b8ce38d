import pg from "pg";
import { migrationUrl } from "../lib/db/privileges";

/** A client on the server's maintenance database (CREATE/DROP DATABASE cannot run in the target
 * database itself), as the owner: MIGRATION_DATABASE_URL's role when it is set, since the app's role
 * in DATABASE_URL may create no databases. Closed when `fn` is done. */
async function onMaintenanceDb<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const admin = new URL(ownerUrl(url));
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Runs one statement on the server's maintenance database, as the owner (onMaintenanceDb). */
export async function adminQuery(url: string, sql: string): Promise<void> {
  await onMaintenanceDb(url, (client) => client.query(sql));
}

/** The owner's URL for the database `url` names (the same URL when no owner is configured). */
export function ownerUrl(url: string): string {
  // process.env, not env(): the harness sets variables after start (e2e-server, chaos), and env() reads once.
  return migrationUrl(url, process.env.MIGRATION_DATABASE_URL || undefined);
}

/** Databases the tests create are named after the one in DATABASE_URL, so parallel checkouts that
 * use different databases never touch each other's. */
export function testDatabaseBase(url: string): string {
  const name = new URL(url).pathname.slice(1) || "postgres";
  return name.replace(/\W+/g, "_").slice(0, 40);
}

/**
 * The start of the name of every database one test run's files create (testing/db.ts): the run's
 * own, so what the run left behind can be dropped at its end without touching another run's.
 */
export function testFileDatabasePrefix(url: string, run: string): string {
  return `${testDatabaseBase(url)}_t_${run.slice(0, 8)}_`;
}

/** The databases on the server whose name starts with `prefix`, in name order. */
export async function databasesStartingWith(url: string, prefix: string): Promise<string[]> {
  return onMaintenanceDb(url, async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE starts_with(datname, $1) ORDER BY datname`,
      [prefix],
    );
    return rows.map((r) => r.datname);
  });
}

/**
 * Drops every database whose name starts with `prefix` (a test run's, testFileDatabasePrefix) and
 * returns their names: a test file that stopped before closing its database leaves one behind.
 */
export async function dropDatabasesStartingWith(url: string, prefix: string): Promise<string[]> {
  const names = await databasesStartingWith(url, prefix);
  for (const name of names) await adminQuery(url, `DROP DATABASE IF EXISTS "${name.replaceAll('"', '""')}" WITH (FORCE)`);
  return names;
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
