// The store every rate limit counts in: rate-limiter-flexible's PostgreSQL store, the
// "RateLimitCounter" table (made by a migration), reached through the app's own driver – its pool on
// PostgreSQL, the embedded database otherwise – so every process on one database counts together and
// the embedded database keeps the counts across restarts like any other state.
import { RateLimiterPostgres } from "rate-limiter-flexible";
import { driverOf, type Db } from ".";
import { preparedSql } from "./driver";

/** The library's statements, sent through the app's driver: pg-style `{text, values, name}` in, `{rows, rowCount}` out. */
function storeClient(client: () => Db) {
  return {
    async query(q: { text: string; values?: unknown[]; name?: string }) {
      const rows = await driverOf(client()).rows<Record<string, string | null>>(q.name ? preparedSql(q.text) : q.text, q.values ?? []);
      // The driver answers every column as text; the library computes with numbers.
      const typed = rows.map((row) => ({
        ...row,
        points: row.points == null ? row.points : Number(row.points),
        expire: row.expire == null ? null : Number(row.expire),
      }));
      return { rows: typed, rowCount: typed.length };
    },
  };
}

/** A counter of `points` per `windowSeconds` under `keyPrefix`, in the shared table. */
export function storedRateLimiter(input: {
  keyPrefix: string;
  points: number;
  windowSeconds: number;
  client: () => Db;
  /** Past the limit, refused from memory until the window ends (no statement per refused request). */
  inMemoryBlockOnConsumed?: number;
}): RateLimiterPostgres {
  return new RateLimiterPostgres({
    storeClient: storeClient(input.client),
    storeType: "client",
    tableName: "RateLimitCounter",
    tableCreated: true,
    keyPrefix: input.keyPrefix,
    points: input.points,
    duration: input.windowSeconds,
    ...(input.inMemoryBlockOnConsumed === undefined ? {} : { inMemoryBlockOnConsumed: input.inMemoryBlockOnConsumed }),
  });
}
