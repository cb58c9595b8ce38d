// Statements typed from the schema. Kysely builds them against the tables' types (generated from
// schema.prisma by prisma-kysely), and they run on the project's own driver (driver.ts): prepared once
// per connection, counted as round trips like every other statement, every column back as its text.
// So a row's type comes from the schema – its columns' names, which may be null, what an enum may
// hold – and says what the driver really returns: text, not the Date or number Kysely would parse.
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type Compilable,
  type InferResult,
  type Selectable,
} from "kysely";
import type { DB } from "../../generated/kysely/types";
import { preparedSql, type TSqlTx } from "./driver";

export type { DB };

/** Builds statements only (`.compile()`): it holds no connection, the driver runs them. */
export const typed = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/**
 * A boolean's text: `t`/`f` as the driver returns the column, `true`/`false` when the statement casts
 * it (`::text`, which statements run through Prisma need). Read it with isTrue, never by comparing.
 */
export type TBooleanText = "t" | "f" | "true" | "false";

/** A value as the driver gives it back: each as its text, an enum as one of its labels. */
export type TText<T> = T extends null ? null : T extends boolean ? TBooleanText : T extends string ? T : string;

/** A row as the driver gives it back: each column's text, null where the schema allows null. */
export type TTextRowOf<R> = { [K in keyof R]: TText<R[K]> };

/** A table's row as text (`TRowText<"ApprovalRequest">`), or some of its columns. */
export type TRowText<T extends keyof DB, K extends keyof Selectable<DB[T]> = keyof Selectable<DB[T]>> = TTextRowOf<
  Pick<Selectable<DB[T]>, K>
>;

/** Columns read through an outer join: each may be null. */
export type TOuterJoined<R> = { [K in keyof R]: R[K] | null };

/** Runs a built statement on a driver connection; its rows typed from what it selects. */
export async function runTyped<Q extends Compilable>(tx: TSqlTx, query: Q): Promise<TTextRowOf<InferResult<Q>[number]>[]> {
  const { sql, parameters } = query.compile();
  return tx.rows(preparedSql(sql), parameters);
}

/** A boolean's text as a boolean (null is false). */
export const isTrue = (text: TBooleanText | null): boolean => text === "t" || text === "true";
