// The test run's own databases, and only its own, are dropped when it ends (testing/global-setup.ts).
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { adminQuery, databasesStartingWith, dropDatabasesStartingWith, ownerUrl, testFileDatabasePrefix } from "./postgres";

const url = process.env.DATABASE_URL;

describe("test-file database names", () => {
  it("fit PostgreSQL's 63-character limit with the longest base and the run's prefix", () => {
    const prefix = testFileDatabasePrefix(`postgresql://u@h:5432/${"x".repeat(80)}`, "0123456789ab");
    expect(prefix).toBe(`${"x".repeat(40)}_t_01234567_`);
    expect(`${prefix}${"f".repeat(10)}`.length).toBeLessThanOrEqual(63);
  });
});

describe.skipIf(!url)("dropping what a test run left behind (PostgreSQL)", () => {
  const ours = testFileDatabasePrefix(url ?? "postgresql://u@h/x", "feedf00d0000");
  const theirs = testFileDatabasePrefix(url ?? "postgresql://u@h/x", "0badcafe0000");

  const existing = (prefix: string) => databasesStartingWith(url!, prefix);

  afterAll(async () => {
    for (const name of [...(await existing(ours)), ...(await existing(theirs))])
      await adminQuery(url!, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });

  it("drops every database of this run, open connections and all, and none of another run's", async () => {
    for (const name of [`${ours}a1`, `${ours}b2`, `${theirs}a1`]) await adminQuery(url!, `CREATE DATABASE "${name}"`);
    // A connection still open, as a file that stopped mid-test leaves it.
    const held = new URL(ownerUrl(url!));
    held.pathname = `/${ours}a1`;
    const holder = new pg.Client({ connectionString: held.toString() });
    holder.on("error", () => {});
    await holder.connect();
    try {
      expect(await dropDatabasesStartingWith(url!, ours)).toEqual([`${ours}a1`, `${ours}b2`]);
      expect(await existing(ours)).toEqual([]);
      expect(await existing(theirs)).toEqual([`${theirs}a1`]);
      expect(await dropDatabasesStartingWith(url!, ours)).toEqual([]);
    } finally {
      await holder.end().catch(() => {});
    }
  });
});
