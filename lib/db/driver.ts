// Statements straight on the driver (pg or PGlite), below Prisma, for the paths where Prisma's own work
// per statement is most of the cost: the money path and reads of millions of rows. Every column comes
// back as the database's text, so no driver-specific parsing (dates, 64-bit numbers) is trusted and the
// two databases answer alike. Statements given a name are prepared once per connection on PostgreSQL
// (parsed and planned once, then only executed); on PGlite every statement text is (pglite-prepared.ts).
//
// Round trips through here are counted like any other (round-trips.ts wraps the same clients).
import { createHash } from "node:crypto";
import type { PGlite, Transaction } from "@electric-sql/pglite";
import type pg from "pg";

/** One statement's text, and the name it is prepared under (derived from the text, so never reused). */
export interface TSql {
  readonly text: string;
  readonly name: string;
}

const named = new Map<string, TSql>();

/**
 * A statement the driver prepares once per connection. Define it at module level, or build it at run
 * time from a few fixed shapes (each distinct text is one prepared statement per connection).
 */
export function preparedSql(text: string): TSql {
  let statement = named.get(text);
  if (!statement) {
    statement = { text, name: `cs_${createHash("sha256").update(text).digest("hex").slice(0, 24)}` };
    named.set(text, statement);
  }
  return statement;
}

export type TTextRow = Record<string, string | null>;

/** What a statement runs on: a connection in a transaction, or a caller's own transaction. */
export interface TSqlTx {
  /** The rows, typed by the caller: every column is text or null, as the statement names them. */
  rows<R = TTextRow>(statement: TSql | string, params?: readonly unknown[]): Promise<R[]>;
}

/** A statement runner, as opposed to a Prisma client or transaction (for functions that take either). */
export function isSqlTx(tx: object): tx is TSqlTx {
  return typeof (tx as Partial<TSqlTx>).rows === "function";
}

export interface TDriver extends TSqlTx {
  /** BEGIN, `fn` on one connection, COMMIT; ROLLBACK when `fn` throws. */
  transaction<T>(fn: (tx: TSqlTx) => Promise<T>): Promise<T>;
}

// Every type as its text.
const TEXT_TYPES = { getTypeParser: () => (value: string) => value };
// PGlite merges its parsers by key (a spread), so each type that it would parse is named: bool, int8,
// int2, int4, json, float4, float8, timestamp, timestamptz, numeric, jsonb.
const TEXT_PARSERS = Object.fromEntries(
  [16, 20, 21, 23, 114, 700, 701, 1114, 1184, 1700, 3802].map((oid) => [oid, (value: string) => value]),
);

const textOf = (statement: TSql | string) => (typeof statement === "string" ? statement : statement.text);

function pgQuery(client: pg.Pool | pg.PoolClient, statement: TSql | string, params: readonly unknown[]) {
  const config = typeof statement === "string" ? { text: statement } : { text: statement.text, name: statement.name };
  return client.query<TTextRow>({ ...config, values: [...params], types: TEXT_TYPES });
}

export function pgDriver(pool: pg.Pool): TDriver {
  return {
    async rows<R>(statement: TSql | string, params: readonly unknown[] = []) {
      return (await pgQuery(pool, statement, params)).rows as R[];
    },
    async transaction(fn) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query("BEGIN");
        const result = await fn({
          rows: async <R>(statement: TSql | string, params: readonly unknown[] = []) =>
            (await pgQuery(client, statement, params)).rows as R[],
        });
        await client.query("COMMIT");
        return result;
      } catch (error) {
        // A connection that cannot roll back is not given back to the pool.
        await client.query("ROLLBACK").catch((rollbackError: Error) => (broken = rollbackError));
        throw error;
      } finally {
        client.release(broken);
      }
    },
  };
}

export function pgliteDriver(pglite: PGlite): TDriver {
  const on = (db: PGlite | Transaction): TSqlTx => ({
    rows: async <R>(statement: TSql | string, params: readonly unknown[] = []) =>
      (await db.query<R>(textOf(statement), params as unknown[], { parsers: TEXT_PARSERS })).rows,
  });
  return { ...on(pglite), transaction: (fn) => pglite.transaction((tx) => fn(on(tx))) };
}

/**
 * A Prisma interactive transaction as a statement runner, for callers that do more in the same commit
 * through Prisma. The statements must name every column's text (`::text`): Prisma parses what it
 * can, and text is what the driver path returns.
 */
export function prismaSqlTx(tx: { $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T> }): TSqlTx {
  return { rows: <R>(statement: TSql | string, params: readonly unknown[] = []) => tx.$queryRawUnsafe<R[]>(textOf(statement), ...params) };
}

/** A `timestamp(3)` column's text (UTC, as Prisma stores it) as a Date. */
export function timestampFromText(text: string): Date {
  return new Date(`${text.replace(" ", "T")}Z`);
}

/**
 * A refusal a statement raised itself through countersign_refuse (SQLSTATE CS409): its name and what
 * the statement found; null for any other error. The statement, and everything it wrote, is undone.
 */
export function statementRefusal(error: unknown): { refusal: string; found: string | null } | null {
  if (typeof error !== "object" || error === null || (error as { code?: unknown }).code !== "CS409") return null;
  const { message, detail } = error as { message?: unknown; detail?: unknown };
  return { refusal: String(message), found: typeof detail === "string" && detail !== "" ? detail : null };
}

/** A unique-key violation, as the driver reports it (SQLSTATE 23505). */
export function isDriverUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "23505";
}

/** The name of the unique index a driver's unique-key violation met; null for any other error, or when the driver does not say. */
export function violatedConstraint(error: unknown): string | null {
  if (!isDriverUniqueViolation(error)) return null;
  const constraint = (error as { constraint?: unknown }).constraint;
  return typeof constraint === "string" ? constraint : null;
}
