import pg from "pg";
import { migrationUrl } from "../lib/db/privileges";

/** Runs one statement on the server's maintenance database (CREATE/DROP DATABASE cannot run in the
 * target database itself), as the owner: MIGRATION_DATABASE_URL's role when it is set, since the
 * app's role in DATABASE_URL may create no databases. */
export async function adminQuery(url: string, sql: string): Promise<void> {
  const admin = new URL(ownerUrl(url));
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
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

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
