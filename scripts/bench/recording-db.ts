// A PostgreSQL handle for the bench whose pool records what its driver sends: every statement's text
// and parameter values, BEGIN and COMMIT included, below Prisma (the same place lib/db/round-trips.ts
// counts them). The write-path bench turns a recording of one executor call into a pgbench script,
// so the reference does exactly the statements the executor sends, whatever the executor becomes.
import pg from "pg";
import type { PrismaClient } from "../../generated/prisma/client";
import { openDb } from "../../lib/db";

export interface TStatement {
  text: string;
  values: unknown[];
  /** Prepared once per connection under this name (the driver's named statements), or sent as is. */
  prepared: boolean;
}

export interface TRecordingHandle {
  client: PrismaClient;
  close(): Promise<void>;
  /** Statements sent by every connection of the pool since the handle was opened. */
  statements: { count: number };
  /** Records the statements sent while `fn` runs (run it alone: the pool is shared). */
  record<T>(fn: () => Promise<T>): Promise<{ result: T; statements: TStatement[] }>;
}

export function openRecordingDb(url: string, max: number): TRecordingHandle {
  const pool = new pg.Pool({ connectionString: url, max });
  const counter = { count: 0 };
  let recording: TStatement[] | null = null;
  pool.on("connect", (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      counter.count++;
      if (recording) {
        const [first, second] = args;
        const config =
          typeof first === "string"
            ? { text: first, values: Array.isArray(second) ? second : [] }
            : (first as { text: string; values?: unknown[]; name?: string });
        recording.push({ text: config.text, values: [...(config.values ?? [])], prepared: "name" in config && Boolean(config.name) });
      }
      return query(...args);
    };
  });
  // Opened like the app's own handle, so the driver path (lib/db/driver.ts) runs through this pool too.
  const handle = openDb({ kind: "postgres", url, pool });
  return {
    client: handle.client,
    statements: counter,
    close: () => handle.close(),
    async record(fn) {
      const statements: TStatement[] = [];
      recording = statements;
      try {
        return { result: await fn(), statements };
      } finally {
        recording = null;
      }
    },
  };
}
