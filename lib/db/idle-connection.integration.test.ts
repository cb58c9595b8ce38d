// A connection the server ends while it sits idle in the pool (a restart, an administrator, a dropped
// database) costs the pool that connection, never the process: pg reports it as an 'error' event on
// the pool, which ends a process where nobody listens. PostgreSQL only (PGlite has no server).
import pg from "pg";
import { describe, expect, it } from "vitest";
import { useTestDb } from "../../testing/db";
import { driverOf, openDb } from "./index";

const testDb = useTestDb();

describe.runIf(!!process.env.DATABASE_URL)("an idle connection ended by the server", () => {
  it("is dropped from the pool, the process goes on and the next query gets a new connection", async () => {
    const pool = new pg.Pool({ connectionString: testDb().url!, max: 2 });
    const handle = openDb({ kind: "postgres", url: testDb().url!, pool });
    try {
      // Straight on the driver, as the executor and the queue's statements go: Prisma's adapter, once
      // used, listens on the pool itself, but a pool used only by the driver has nobody else.
      const driver = driverOf(handle.client);
      const [{ pid }] = (await driver.rows<{ pid: string }>("SELECT pg_backend_pid()::text AS pid")) as [{ pid: string }];
      expect(pool.idleCount).toBe(1);
      const admin = new pg.Client({ connectionString: testDb().ownerUrl! });
      await admin.connect();
      try {
        await admin.query("SELECT pg_terminate_backend($1)", [pid]);
      } finally {
        await admin.end();
      }
      // The pool hears of it and lets the connection go (with nobody listening, Vitest reports the
      // uncaught error and the file fails).
      await expect.poll(() => pool.totalCount, { timeout: 5_000 }).toBe(0);
      const [{ next }] = (await driver.rows<{ next: string }>("SELECT pg_backend_pid()::text AS next")) as [{ next: string }];
      expect(next).not.toBe(pid);
    } finally {
      await handle.close();
    }
  });
});
