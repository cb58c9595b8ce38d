// Prepared statements on PGlite. PGlite's own query() parses and plans its statement every time, in
// six calls into the database (parse, describe, bind, describe, execute, sync); parsing and planning
// are most of what a short statement costs there, several times what executing it costs. Here each
// statement text is parsed once, under a name, with its parameter types read once; after that a
// statement is one call (bind, describe, execute, sync) on the plan Postgres keeps for it. Parameters
// are serialized and rows parsed exactly as query() does (the instance's serializers and parsers, the
// caller's options), errors carry the statement and its parameters as query()'s do, and a statement
// outside a transaction is synced to the file system as query()'s is.
//
// The names live as long as the session. At most STATEMENTS are kept, the least recently used closed
// when a new one is needed, so texts built at run time cannot grow the session without bound. A
// statement whose plan can no longer give the same columns (a table changed under it) is dropped and
// parsed again on its next use.
import { parse, protocol, type PGlite, type QueryOptions, type Results, type Transaction } from "@electric-sql/pglite";

/** Statements kept prepared per instance, by default. */
export const STATEMENTS = 512;

interface TPrepared {
  name: string;
  paramTypes: number[];
}

const serialize = protocol.serialize;

/** Parsers by type id, as PGlite keeps them. */
type TParsers = Parameters<typeof parse.parseResults>[1];

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

// PGlite's private hooks, present on every instance (declared in its types, not documented).
interface TPgliteInternals {
  _checkReady(): Promise<void>;
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
}

const installed = new WeakSet<PGlite>();

/** Makes `pglite.query`, and a transaction's `query`, run prepared statements. Idempotent. */
export function installPreparedStatements(pglite: PGlite, { statements: kept = STATEMENTS }: { statements?: number } = {}): void {
  if (installed.has(pglite)) return;
  installed.add(pglite);
  const internals = pglite as unknown as TPgliteInternals;
  const run = preparedRunner(pglite, statementCache(pglite, kept), mergedParsers(pglite));

  const plainQuery = pglite.query.bind(pglite);
  const plainTransaction = pglite.transaction.bind(pglite);
  // A query that reads or writes a blob (COPY) goes PGlite's own way.
  pglite.query = (async <T>(text: string, params?: unknown[], options?: QueryOptions) => {
    if (options?.blob) return plainQuery<T>(text, params, options);
    await internals._checkReady();
    return internals._runExclusiveTransaction(() => run<T>(text, params, options, false));
  }) as PGlite["query"];
  pglite.transaction = (<T>(callback: (tx: Transaction) => Promise<T>) =>
    plainTransaction((tx) => {
      const prepared: Transaction = Object.create(tx, {
        query: {
          value: async <R>(text: string, params?: unknown[], options?: QueryOptions) => {
            if (tx.closed) throw new Error("Transaction is closed");
            return options?.blob ? tx.query<R>(text, params, options) : run<R>(text, params, options, true);
          },
        },
      });
      return callback(prepared);
    })) as PGlite["transaction"];
}

interface TStatementCache {
  /** The statement prepared for a text (and its parameter types), parsing it on first use. */
  prepare(text: string, options: QueryOptions | undefined): Promise<TPrepared>;
  /** Drops a statement whose plan went stale: closed with the next parse, parsed again on next use. */
  forget(text: string, options: QueryOptions | undefined): void;
}

/** The session's named statements, at most `kept`, the least recently used closed first. */
function statementCache(pglite: PGlite, kept: number): TStatementCache {
  const statements = new Map<string, TPrepared>();
  let next = 0;
  /** Closes, in the same call as the next statement's parse, the statements pushed out of the cache. */
  const toClose: string[] = [];
  const keyOf = (text: string, options: QueryOptions | undefined) =>
    options?.paramTypes?.length ? `${options.paramTypes.join(",")}\0${text}` : text;

  async function prepare(text: string, options: QueryOptions | undefined): Promise<TPrepared> {
    const key = keyOf(text, options);
    const known = statements.get(key);
    if (known) {
      // Most recently used last: the Map's order is the eviction order.
      statements.delete(key);
      statements.set(key, known);
      return known;
    }
    const name = `cs_pglite_${++next}`;
    const closing = toClose.splice(0).map((old) => serialize.close({ type: "S", name: old }));
    const { messages } = await pglite.execProtocol(
      concat([
        ...closing,
        serialize.parse({ name, text, types: options?.paramTypes }),
        serialize.describe({ type: "S", name }),
        serialize.sync(),
      ]),
      { syncToFs: false, onNotice: options?.onNotice },
    );
    const prepared = { name, paramTypes: parse.parseDescribeStatementResults(messages) };
    statements.set(key, prepared);
    if (statements.size > kept) {
      const [oldest, evicted] = statements.entries().next().value!;
      statements.delete(oldest);
      toClose.push(evicted.name);
    }
    return prepared;
  }

  function forget(text: string, options: QueryOptions | undefined) {
    const key = keyOf(text, options);
    const known = statements.get(key);
    if (!known) return;
    statements.delete(key);
    toClose.push(known.name);
  }
  return { prepare, forget };
}

type TParsersFor = (options: QueryOptions | undefined) => [TParsers, QueryOptions | undefined];

/**
 * The parsers a statement's rows are read with: the instance's, with the caller's over them. PGlite
 * merges the two itself when a caller passes its own, by copying every one of the instance's (some
 * 300, one per type) into a new object for each statement; Prisma's adapter passes its own with every
 * statement, always the same object. Merged once per object of the caller's here.
 */
function mergedParsers(pglite: PGlite): TParsersFor {
  const merged = new WeakMap<TParsers, TParsers>();
  return (options) => {
    // ParserOptions is parsers by type id too (an interface, so without an index signature).
    const own = options?.parsers as TParsers | undefined;
    if (!own) return [pglite.parsers, options];
    let parsers = merged.get(own);
    if (!parsers) merged.set(own, (parsers = { ...pglite.parsers, ...own }));
    return [parsers, { ...options, parsers: undefined }];
  };
}

/** One statement as one call on its prepared plan, errors dressed as query()'s are. */
function preparedRunner(pglite: PGlite, cache: TStatementCache, parsersFor: TParsersFor) {
  const internals = pglite as unknown as TPgliteInternals;
  return async function run<T>(
    text: string,
    params: unknown[] = [],
    options: QueryOptions | undefined,
    inTransaction: boolean,
  ): Promise<Results<T>> {
    return internals._runExclusiveQuery(async () => {
      try {
        const { name, paramTypes } = await cache.prepare(text, options);
        const values = params.map((value, i) => {
          if (value === null || value === undefined) return null;
          const type = paramTypes[i]!;
          const serializer = options?.serializers?.[type] ?? pglite.serializers[type];
          return serializer ? serializer(value) : String(value);
        });
        const { messages } = await pglite.execProtocol(
          concat([serialize.bind({ statement: name, values }), serialize.describe({ type: "P" }), serialize.execute({}), serialize.sync()]),
          { syncToFs: !inTransaction, onNotice: options?.onNotice },
        );
        return parse.parseResults(messages, ...parsersFor(options))[0] as Results<T>;
      } catch (error) {
        // "cached plan must not change result type": parsed again next time.
        if ((error as { code?: unknown }).code === "0A000") cache.forget(text, options);
        if (error instanceof Error) Object.assign(error, { query: text, params, queryOptions: options });
        throw error;
      }
    });
  };
}
