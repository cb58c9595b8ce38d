// Least privilege on PostgreSQL. The app connects with a role of its own (DATABASE_URL); migrations
// run as the role that owns the tables (MIGRATION_DATABASE_URL). The triggers that keep history
// append-only protect nothing against the owner, who may disable them (ALTER TABLE … DISABLE
// TRIGGER) or drop the table. The app's role owns nothing, holds no TRUNCATE, and may only read and
// add rows in the append-only tables: whoever holds its credentials cannot rewrite history, even
// with the triggers in mind. A superuser still can; that is what signed checkpoints kept outside the
// database are for.
//
// The grants are recomputed by the owner after every deploy (deployMigrations), from the
// classification below, so a table is covered the moment the migration that creates it is applied.
import pg from "pg";

/**
 * Tables whose rows are history: the app may read them and add to them, never change or remove a
 * row. Every other table in the app's schemas is read and written freely. A new table that keeps
 * history belongs here (and wants the append-only triggers in its migration, for the owner's sake).
 */
export const APPEND_ONLY_TABLES = ["AuditEvent", "LedgerEntry", "ApprovalDecision", "AuditCheckpoint", "ExternalRefund"] as const;

/**
 * Columns of append-only tables the app may still clear, for erasure: free text a person wrote about a
 * customer. A trigger lets an UPDATE through only when it sets these to NULL and changes nothing else
 * (migration 20261130500000_personal_data); nothing a signature or a hash covers is among them.
 */
export const ERASABLE_COLUMNS = { ApprovalDecision: ["note", "originalReply", "editedReply"] } as const satisfies Partial<
  Record<(typeof APPEND_ONLY_TABLES)[number], readonly string[]>
>;

/** Read but never written by the app: the migration history (the health check reads it). */
export const READ_ONLY_TABLES = ["_prisma_migrations"] as const;

/** The app's own tables, and the job queue's (pg-boss, created by the migrations). */
export const APP_SCHEMAS = ["public", "pgboss"] as const;

/**
 * Functions the app calls. pg-boss creates its internal queue on start with this one: a no-op, as
 * the migrations created it; a queue it does not know would need CREATE TABLE, which the app's role
 * does not have. pg-boss runs no migrations of its own (`migrate: false`).
 */
export const APP_FUNCTIONS = ["pgboss.create_queue(text, json)"] as const;

export interface TAppRoleReport {
  /** The role in DATABASE_URL. */
  appRole: string;
  /** The role that ran the migrations and made the grants. */
  ownerRole: string;
  /** false: the app's role can rewrite history (see `warning`); nothing was granted. */
  protected: boolean;
  /** One line for the operator when the app's role is not protected. */
  warning?: string;
  /** Append-only tables present here: the app's role may SELECT and INSERT, nothing more. */
  appendOnly: string[];
  /** Append-only tables this database does not have (yet); nothing to grant on them. */
  missing: string[];
}

/**
 * The owner's URL for the database an app URL names: the owner's (MIGRATION_DATABASE_URL) with
 * that database (the same one in production; the test, e2e and chaos databases made beside the
 * configured one get the same owner), or the app's URL itself when no owner is configured.
 */
export function migrationUrl(appUrl: string, ownerUrl: string | undefined): string {
  if (!ownerUrl) return appUrl;
  const owner = new URL(ownerUrl);
  owner.pathname = new URL(appUrl).pathname;
  return owner.toString();
}

/** The role a URL connects as: its user, or (none given) whatever the server says it is. */
async function roleOf(url: string): Promise<string> {
  const named = new pg.Client({ connectionString: url }).user;
  if (named) return named;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ role: string }>("SELECT current_user AS role")).rows[0]!.role;
  } finally {
    await client.end();
  }
}

const q = (name: string) => pg.escapeIdentifier(name);

/**
 * As the owner (ownerUrl), grants the app's role (the user in appUrl) exactly what the app uses,
 * and nothing else: USAGE on the schemas; SELECT, INSERT on the append-only tables; SELECT on the
 * migration history; SELECT, INSERT, UPDATE, DELETE on every other table; USAGE, SELECT on the
 * sequences; EXECUTE on APP_FUNCTIONS. Never TRUNCATE, REFERENCES, TRIGGER or CREATE; never
 * ownership. Idempotent: everything the role held before is revoked in the same transaction, so a
 * table reclassified as append-only loses its UPDATE and DELETE on the next deploy.
 *
 * When the app's role is the owner, a member of it, or a superuser, nothing can be protected and
 * nothing is granted: the report says so in one line.
 */
export async function grantAppRole(options: { ownerUrl: string; appUrl: string; appendOnly?: readonly string[] }): Promise<TAppRoleReport> {
  const appendOnlyNames = options.appendOnly ?? APPEND_ONLY_TABLES;
  const appRole = await roleOf(options.appUrl);
  const client = new pg.Client({ connectionString: options.ownerUrl });
  await client.connect();
  try {
    await client.query("BEGIN");
    // Two instances deploying at once would otherwise race on the same catalog rows.
    await client.query("SELECT pg_advisory_xact_lock(hashtext('countersign.grant_app_role'))");
    const { owner, superuser, owns } = await roleFacts(client, appRole);
    const appendOnly = await presentTables(client, appendOnlyNames);
    const missing = appendOnlyNames.filter((n) => !appendOnly.includes(n));
    const unprotected = (warning: string) => ({ appRole, ownerRole: owner, protected: false as const, appendOnly, missing, warning });

    if (superuser || owns) {
      await client.query("COMMIT");
      return unprotected(
        `PostgreSQL: the app connects as "${appRole}", ${superuser ? "a superuser" : "the owner of its tables"}, so the append-only triggers can be disabled ` +
          `and the audit trail, approval decisions and ledger truncated by anyone with its credentials; set MIGRATION_DATABASE_URL to the owner ` +
          `and DATABASE_URL to a role of the app's own (docs/operations.md, "Database roles").`,
      );
    }
    // With no MIGRATION_DATABASE_URL and an app role that owns nothing (its grants made by hand),
    // this connection is the app's own: it can grant nothing, only check below what it holds.
    if (owner !== appRole) await grantPrivileges(client, { owner, appRole, appendOnly });

    const leaks = await privilegesLeft(client, appRole, appendOnly);
    await client.query("COMMIT");
    if (leaks.length) {
      return unprotected(
        `PostgreSQL: the app's role "${appRole}" may still UPDATE, DELETE or TRUNCATE ${leaks.map((name) => `"${name}"`).join(", ")} ` +
          `(granted to PUBLIC or to a role it belongs to): revoke it (docs/operations.md, "Database roles").`,
      );
    }
    return { appRole, ownerRole: owner, protected: true, appendOnly, missing };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}

/** Who this connection is, and whether the app's role is a superuser or owns anything of the app's. */
async function roleFacts(client: pg.Client, appRole: string): Promise<{ owner: string; superuser: boolean; owns: boolean }> {
  const { rows: facts } = await client.query<{ owner: string; exists: boolean; superuser: boolean; owns: boolean }>(
    `SELECT current_user AS owner, r.oid IS NOT NULL AS exists, coalesce(r.rolsuper, false) AS superuser,
            coalesce(EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                              WHERE n.nspname = ANY($2) AND pg_has_role(r.oid, c.relowner, 'MEMBER'))
                     OR EXISTS (SELECT 1 FROM pg_namespace n WHERE n.nspname = ANY($2) AND pg_has_role(r.oid, n.nspowner, 'MEMBER')), false) AS owns
       FROM (SELECT 1) one LEFT JOIN pg_roles r ON r.rolname = $1`,
    [appRole, APP_SCHEMAS],
  );
  const { owner, exists, superuser, owns } = facts[0]!;
  if (!exists)
    throw new Error(`The role "${appRole}" named in DATABASE_URL does not exist: create it first (docs/operations.md, "Database roles").`);
  return { owner, superuser, owns };
}

/** Those of the named tables of the public schema this database has. */
async function presentTables(client: pg.Client, names: readonly string[]): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    "SELECT name FROM unnest($1::text[]) AS name WHERE to_regclass(format('public.%I', name)) IS NOT NULL",
    [[...names]],
  );
  return rows.map((r) => r.name);
}

/** As the owner of everything in the app's schemas, revokes all the app's role held and grants its share. */
async function grantPrivileges(client: pg.Client, who: { owner: string; appRole: string; appendOnly: string[] }): Promise<void> {
  const { rows: notOwned } = await client.query<{ name: string }>(
    `SELECT n.nspname || '.' || c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = ANY($1) AND c.relkind IN ('r', 'p', 'v', 'm', 'S') AND NOT pg_has_role(current_user, c.relowner, 'MEMBER')`,
    [APP_SCHEMAS],
  );
  if (notOwned.length) {
    throw new Error(
      `MIGRATION_DATABASE_URL connects as "${who.owner}", which does not own ${notOwned.map((r) => r.name).join(", ")}: it cannot grant the app's role what it needs.`,
    );
  }
  const { rows: schemaRows } = await client.query<{ name: string }>(
    "SELECT nspname AS name FROM pg_namespace WHERE nspname = ANY($1) ORDER BY nspname DESC",
    [APP_SCHEMAS],
  );
  const { rows: functions } = await client.query<{ fn: string }>(
    "SELECT to_regprocedure(f)::text AS fn FROM unnest($1::text[]) AS f WHERE to_regprocedure(f) IS NOT NULL",
    [[...APP_FUNCTIONS]],
  );
  const readOnly = await presentTables(client, READ_ONLY_TABLES);
  const statements = grantStatements({
    role: q(who.appRole),
    schemas: schemaRows.map((r) => r.name),
    functions: functions.map((f) => f.fn),
    appendOnly: who.appendOnly,
    readOnly,
  });
  if (schemaRows.length) for (const sql of statements) await client.query(sql);
}

/** The statements that leave `role` exactly its share: everything revoked first, then granted. */
function grantStatements(share: {
  role: string;
  schemas: string[];
  functions: string[];
  appendOnly: string[];
  readOnly: string[];
}): string[] {
  const { role } = share;
  const schemas = share.schemas.map(q).join(", ");
  const tables = (names: string[]) => names.map((n) => `public.${q(n)}`).join(", ");
  return [
    `REVOKE ALL ON ALL TABLES IN SCHEMA ${schemas} FROM ${role}`,
    `REVOKE ALL ON ALL SEQUENCES IN SCHEMA ${schemas} FROM ${role}`,
    // Only the functions the app calls: the others (pg-boss's delete_queue) are not for it.
    share.schemas.includes("pgboss") ? `REVOKE ALL ON ALL FUNCTIONS IN SCHEMA pgboss FROM PUBLIC, ${role}` : "",
    // PostgreSQL 15 no longer lets everyone create in public; older clusters' databases still do.
    `REVOKE CREATE ON SCHEMA ${schemas} FROM PUBLIC, ${role}`,
    `GRANT USAGE ON SCHEMA ${schemas} TO ${role}`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schemas} TO ${role}`,
    share.appendOnly.length ? `REVOKE UPDATE, DELETE ON ${tables(share.appendOnly)} FROM ${role}` : "",
    share.readOnly.length ? `REVOKE INSERT, UPDATE, DELETE ON ${tables(share.readOnly)} FROM ${role}` : "",
    ...Object.entries(ERASABLE_COLUMNS)
      .filter(([table]) => share.appendOnly.includes(table))
      .map(([table, columns]) => `GRANT UPDATE (${columns.map(q).join(", ")}) ON ${tables([table])} TO ${role}`),
    `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${schemas} TO ${role}`,
    ...share.functions.map((fn) => `GRANT EXECUTE ON FUNCTION ${fn} TO ${role}`),
  ].filter(Boolean);
}

/**
 * The append-only tables the role may still change, however it came by it (PUBLIC, a role it belongs
 * to such as pg_write_all_data): the report is about the result, not about what was granted here.
 */
async function privilegesLeft(client: pg.Client, appRole: string, appendOnly: string[]): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    "SELECT name FROM unnest($2::text[]) AS name WHERE has_table_privilege($1, format('public.%I', name), 'UPDATE, DELETE, TRUNCATE')",
    [appRole, appendOnly],
  );
  return rows.map((r) => r.name);
}
