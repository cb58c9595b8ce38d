import pg from "pg";

/** Runs one statement on the server's maintenance database (CREATE/DROP DATABASE cannot run in the
 * target database itself). */
export async function adminQuery(url: string, sql: string): Promise<void> {
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
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
