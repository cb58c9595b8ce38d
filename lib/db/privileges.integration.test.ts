// Least privilege: whoever holds the app's credentials cannot rewrite history. The refusals need
// PostgreSQL with two roles, DATABASE_URL the app's own and MIGRATION_DATABASE_URL the owner (as CI
// runs it): the test database is a clone of the template the owner migrated and granted, and the
// client under test connects as the app. With one URL the app is the owner, and the report says so.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { drainQueue } from "../../testing/queue";
import { approvalFor, freshOrder, tabletTicket, user } from "../../testing/runs";
import { seedDemo } from "../../prisma/seed/demo";
import { decideApproval } from "../approvals/decide-approval";
import { APPEND_ONLY_TABLES, APP_SCHEMAS, READ_ONLY_TABLES, grantAppRole, migrationUrl } from "./privileges";

const testDb = useTestDb();
const onPostgres = !!process.env.DATABASE_URL;
const roleIn = (url: string | undefined) => (url ? decodeURIComponent(new URL(url).username) : "");
const twoRoles =
  onPostgres && !!process.env.MIGRATION_DATABASE_URL && roleIn(process.env.DATABASE_URL) !== roleIn(process.env.MIGRATION_DATABASE_URL);

/** The tables that keep history and exist in this build (the classification may name one a later migration adds). */
const HISTORY = ["AuditEvent", "LedgerEntry", "ApprovalDecision"] as const;
/** A column of each, for an UPDATE that changes nothing but is still refused. */
const A_COLUMN = { AuditEvent: "action", LedgerEntry: "kind", ApprovalDecision: "decision" } as const;

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

/** The statement's error, or a failure when it went through. */
async function refusal(client: pg.Client, sql: string): Promise<{ code?: string; message: string }> {
  try {
    await client.query(sql);
  } catch (error) {
    return { code: (error as { code?: string }).code, message: (error as Error).message };
  }
  throw new Error(`not refused: ${sql}`);
}

describe("the owner's URL for a database", () => {
  it("is MIGRATION_DATABASE_URL on the database the app's URL names, or the app's URL when none is set", () => {
    expect(migrationUrl("postgresql://app:pw@pool:6432/cs_t_1", "postgresql://owner:secret@db:5432/cs")).toBe(
      "postgresql://owner:secret@db:5432/cs_t_1",
    );
    expect(migrationUrl("postgresql://app@127.0.0.1:5432/cs", undefined)).toBe("postgresql://app@127.0.0.1:5432/cs");
  });

  it("classifies the append-only tables once, the audit checkpoints among them", () => {
    expect(APPEND_ONLY_TABLES).toEqual(expect.arrayContaining([...HISTORY, "AuditCheckpoint"]));
  });
});

describe("the append-only triggers", () => {
  it("refuse the owner a TRUNCATE of the approval decisions", async () => {
    const db = testDb();
    await seedDemo(db.client);
    const reviewer = await user(db.client, "REVIEWER");
    const request = await approvalFor(db.client, await tabletTicket(db.client, await freshOrder(db.client)));
    await decideApproval({ approvalId: request.id, decision: "reject", note: "Not eligible.", digest: request.digest, actor: reviewer });
    const truncate = `TRUNCATE "ApprovalDecision"`;
    if (db.pglite) {
      // The embedded database has no roles: everyone is the owner.
      await expect(db.pglite.exec(truncate)).rejects.toThrow(/append_only: TRUNCATE on "ApprovalDecision" is refused/);
    } else {
      const owner = await connect(db.ownerUrl!);
      try {
        expect(await refusal(owner, truncate)).toMatchObject({
          code: "42501",
          message: 'append_only: TRUNCATE on "ApprovalDecision" is refused',
        });
      } finally {
        await owner.end();
      }
    }
    expect(await db.client.approvalDecision.count({ where: { approvalRequestId: request.id } })).toBe(1);
  });
});

describe.runIf(onPostgres)("with one URL (the app connects as the owner)", () => {
  it("says in one line what it cannot protect, and grants nothing", async () => {
    const db = testDb();
    const report = await grantAppRole({ ownerUrl: db.ownerUrl!, appUrl: db.ownerUrl! });
    expect(report.protected).toBe(false);
    expect(report.warning).toMatch(
      /^PostgreSQL: the app connects as "[^"]+", (a superuser|the owner of its tables), so the append-only triggers can be disabled .* truncated .* set MIGRATION_DATABASE_URL/,
    );
    expect(report.warning).not.toContain("\n");
  });
});

describe.runIf(twoRoles)("the app's own role (PostgreSQL, DATABASE_URL and MIGRATION_DATABASE_URL)", () => {
  let app: pg.Client;
  let owner: pg.Client;
  let appRole: string;
  const counts = async () => {
    const rows: Record<string, number> = {};
    for (const t of HISTORY) rows[t] = Number((await owner.query(`SELECT count(*) AS n FROM "${t}"`)).rows[0].n);
    return rows;
  };

  beforeAll(async () => {
    const db = testDb();
    app = await connect(db.url!);
    owner = await connect(db.ownerUrl!);
    appRole = (await app.query<{ role: string }>("SELECT current_user AS role")).rows[0]!.role;
  });
  afterAll(async () => {
    await app?.end();
    await owner?.end();
  });

  it("does its work: a refund approved, executed by the job worker, written to the ledger and the audit trail", async () => {
    const db = testDb();
    const reviewer = await user(db.client, "REVIEWER");
    const request = await approvalFor(db.client, await tabletTicket(db.client, await freshOrder(db.client)));
    await decideApproval({ approvalId: request.id, decision: "approve", digest: request.digest, actor: reviewer });
    await drainQueue(db);
    expect(await db.client.ledgerEntry.count({ where: { approvalRequestId: request.id } })).toBe(1);
    expect(await db.client.approvalRequest.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({
      executionOutcome: "refund_created",
    });
    const rows = await counts();
    for (const table of HISTORY) expect(rows[table], table).toBeGreaterThan(0);
  });

  const cases = HISTORY.flatMap((table) => [
    {
      table,
      what: "ALTER TABLE … DISABLE TRIGGER ALL",
      sql: `ALTER TABLE "${table}" DISABLE TRIGGER ALL`,
      message: `must be owner of table ${table}`,
    },
    { table, what: "TRUNCATE", sql: `TRUNCATE "${table}"`, message: `permission denied for table ${table}` },
    { table, what: "DELETE", sql: `DELETE FROM "${table}"`, message: `permission denied for table ${table}` },
    {
      table,
      what: "UPDATE",
      sql: `UPDATE "${table}" SET "${A_COLUMN[table]}" = "${A_COLUMN[table]}"`,
      message: `permission denied for table ${table}`,
    },
    { table, what: "DROP TABLE", sql: `DROP TABLE "${table}" CASCADE`, message: `must be owner of table ${table}` },
  ]);

  it.each(cases)("refuses $what on $table for lack of privilege, not only by the trigger", async ({ table, sql, message }) => {
    const before = await counts();
    expect(await refusal(app, sql)).toMatchObject({ code: "42501", message });
    expect(await counts()).toEqual(before);
    const triggers = await owner.query(`SELECT count(*)::int AS n FROM pg_trigger WHERE tgrelid = $1::regclass AND tgenabled = 'D'`, [
      `"${table}"`,
    ]);
    expect(triggers.rows[0].n).toBe(0);
  });

  it("cannot step around the triggers: no replica mode, no tables of its own, no ownership", async () => {
    expect(await refusal(app, "SET session_replication_role = replica")).toMatchObject({ code: "42501" });
    expect(await refusal(app, "CREATE TABLE public.shadow_history (id int)")).toMatchObject({ code: "42501" });
    expect(await refusal(app, `ALTER TABLE "AuditEvent" OWNER TO CURRENT_USER`)).toMatchObject({ code: "42501" });
    expect(await refusal(app, "SELECT pgboss.delete_queue('refund-execute')")).toMatchObject({ code: "42501" });
  });

  it("holds exactly the classified privileges on every table of the app's schemas, and owns none", async () => {
    const { rows } = await owner.query<{ name: string; schema: string; owned: boolean; privileges: string[] }>(
      `SELECT c.relname AS name, n.nspname AS schema, pg_has_role($1, c.relowner, 'MEMBER') AS owned,
              array(SELECT p FROM unnest(array['SELECT','INSERT','UPDATE','DELETE','TRUNCATE','REFERENCES','TRIGGER']) AS p
                     WHERE has_table_privilege($1, c.oid, p)) AS privileges
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = ANY($2) AND c.relkind IN ('r', 'p')`,
      [appRole, APP_SCHEMAS],
    );
    expect(rows.length).toBeGreaterThan(20);
    for (const row of rows) {
      const expected =
        (APPEND_ONLY_TABLES as readonly string[]).includes(row.name) && row.schema === "public"
          ? ["SELECT", "INSERT"]
          : (READ_ONLY_TABLES as readonly string[]).includes(row.name)
            ? ["SELECT"]
            : ["SELECT", "INSERT", "UPDATE", "DELETE"];
      expect({ table: `${row.schema}.${row.name}`, owned: row.owned, privileges: row.privileges }).toEqual({
        table: `${row.schema}.${row.name}`,
        owned: false,
        privileges: expected,
      });
    }
  });

  it("grants again on every deploy to the same result, and names an append-only table the database lacks", async () => {
    const db = testDb();
    const acl = async () =>
      (
        await owner.query(
          `SELECT c.relname, c.relacl::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = ANY($1) ORDER BY 1`,
          [APP_SCHEMAS],
        )
      ).rows;
    const before = await acl();
    const report = await grantAppRole({ ownerUrl: db.ownerUrl!, appUrl: db.url!, appendOnly: [...APPEND_ONLY_TABLES, "NoSuchHistory"] });
    expect(report).toMatchObject({
      appRole,
      protected: true,
      appendOnly: expect.arrayContaining([...HISTORY]),
      missing: expect.arrayContaining(["NoSuchHistory"]),
    });
    expect(report.warning).toBeUndefined();
    expect(await acl()).toEqual(before);
  });

  it("reports, in one line, a privilege the role holds another way (granted to PUBLIC)", async () => {
    const db = testDb();
    await owner.query(`GRANT UPDATE ON "LedgerEntry" TO PUBLIC`);
    try {
      const report = await grantAppRole({ ownerUrl: db.ownerUrl!, appUrl: db.url! });
      expect(report.protected).toBe(false);
      expect(report.warning).toMatch(/may still UPDATE, DELETE or TRUNCATE "LedgerEntry"/);
    } finally {
      await owner.query(`REVOKE UPDATE ON "LedgerEntry" FROM PUBLIC`);
    }
  });
});
