// Counts every statement the driver sends – BEGIN, COMMIT and job enqueues included – at the driver
// itself (a pg client, or the PGlite instance), below Prisma, so no code path can go around it.
// Tests hold the write paths to their round-trip budgets with it; counts are exact where timings
// are noisy.
import type { PGlite, Transaction } from "@electric-sql/pglite";
import type pg from "pg";

export interface RoundTripCounter {
  /** Statements sent so far through this handle. */
  readonly count: number;
}

class Counter implements RoundTripCounter {
  count = 0;
}

/** Counts every query of every client the pool hands out (pool.query goes through a client too). */
export function countPgPool(pool: pg.Pool): RoundTripCounter {
  const counter = new Counter();
  pool.on("connect", (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      counter.count++;
      return query(...args);
    };
  });
  return counter;
}

// One instance may be opened by several handles (tests share one), and this module may be loaded
// more than once by a bundler: it is wrapped once, whichever copy sees it first.
const pgliteCounters: WeakMap<PGlite, Counter> = ((
  globalThis as unknown as { __countersignPgliteCounters?: WeakMap<PGlite, Counter> }
).__countersignPgliteCounters ??= new WeakMap());

/** Counts PGlite's query and exec, and a transaction's BEGIN, COMMIT or ROLLBACK and its statements. */
export function countPglite(pglite: PGlite): RoundTripCounter {
  const known = pgliteCounters.get(pglite);
  if (known) return known;
  const counter = new Counter();
  pgliteCounters.set(pglite, counter);
  const counted =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    (...args: A) => {
      counter.count++;
      return fn(...args);
    };
  pglite.query = counted(pglite.query.bind(pglite)) as PGlite["query"];
  pglite.exec = counted(pglite.exec.bind(pglite)) as PGlite["exec"];
  const transaction = pglite.transaction.bind(pglite);
  pglite.transaction = (<T>(callback: (tx: Transaction) => Promise<T>) => {
    counter.count += 2; // BEGIN, and COMMIT or ROLLBACK
    return transaction((tx) => {
      const wrapped: Transaction = Object.create(tx, {
        query: { value: counted(tx.query.bind(tx)) },
        sql: { value: counted(tx.sql.bind(tx)) },
        exec: { value: counted(tx.exec.bind(tx)) },
        rollback: { value: tx.rollback.bind(tx) },
      });
      return callback(wrapped);
    });
  }) as PGlite["transaction"];
  return counter;
}
