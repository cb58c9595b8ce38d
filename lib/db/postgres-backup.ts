// Backups of a PostgreSQL database through pg_dump and pg_restore (which must be on PATH, of the
// server's major version or newer). The dump runs in a snapshot exported by a transaction of ours, so
// what the caller reads in that transaction (the signed checkpoints, say) is exactly what the dump
// holds. Both run as the owner of the tables: the app's role may not read everything pg_dump needs,
// nor create what pg_restore makes.
import { spawn } from "node:child_process";
import pg from "pg";
import type { TTextRow } from "./driver";

export type TSnapshotRows = (sql: string) => Promise<TTextRow[]>;

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          error.code === "ENOENT"
            ? `${command} is not on PATH: install the PostgreSQL client tools (the server's version or newer).`
            : error.message,
        ),
      ),
    );
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${command} failed (exit ${code}): ${stderr.trim()}`))));
  });
}

/**
 * pg_dump of the database at `url` into `file` (custom format), from one snapshot; `inSnapshot`
 * reads from that same snapshot before the dump starts, and its answer is returned.
 */
export async function dumpPostgres<T>(url: string, file: string, inSnapshot: (rows: TSnapshotRows) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const snapshot = (await client.query<{ id: string }>("SELECT pg_export_snapshot() AS id")).rows[0]!.id;
    const read = await inSnapshot(async (sql) => (await client.query<TTextRow>(sql)).rows);
    // The snapshot stays valid while this transaction is open: until pg_dump has finished.
    await run("pg_dump", ["--format=custom", `--snapshot=${snapshot}`, `--file=${file}`, `--dbname=${url}`]);
    return read;
  } finally {
    await client.query("ROLLBACK").catch(() => {});
    await client.end();
  }
}

/** The app's tables in the database at `url` (0: nothing to overwrite). */
export async function countAppTables(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname IN ('public', 'pgboss')");
    return rows[0]!.n;
  } finally {
    await client.end();
  }
}

/**
 * pg_restore of `file` into the database at `url`, in one transaction: all of it or nothing. With
 * `replace`, the app's schemas are dropped first (in the same way as db:reset). Ownership and grants
 * are not restored: the restoring role owns what it makes, and the caller grants the app's role.
 */
export async function restorePostgres(url: string, file: string, options: { replace: boolean }): Promise<void> {
  if (options.replace) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query("DROP SCHEMA IF EXISTS pgboss CASCADE; DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public");
    } finally {
      await client.end();
    }
  }
  await run("pg_restore", ["--no-owner", "--no-acl", "--exit-on-error", "--single-transaction", `--dbname=${url}`, file]);
}
