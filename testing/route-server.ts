// The app's helpdesk-facing route handlers (intake, outbox, health, next-auth) behind a real HTTP
// server in a child process (testing/logged-server.ts), for tests that need real requests: real
// sockets, headers and concurrency. On PostgreSQL it serves a clone of its own (closed with it);
// otherwise an in-memory PGlite it makes itself. `env` adds settings for the child (an empty string
// unsets one).
import type { ChildProcess } from "node:child_process";
import { createTestDb, type TestDb } from "./db";
import { killHard, spawnTs } from "./spawn-ts";

export interface TRouteServer {
  origin: string;
  /** The test's own client on the server's database (PostgreSQL only; the in-memory PGlite is the child's alone). */
  database?: TestDb;
  close(): Promise<void>;
}

export async function startRouteServer(env: Record<string, string> = {}): Promise<TRouteServer> {
  const database = process.env.DATABASE_URL ? await createTestDb() : undefined;
  const child: ChildProcess = spawnTs("testing/logged-server.ts", [], { ...env, LOG_LEVEL: "info", DATABASE_URL: database?.url ?? "" });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    let buffered = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const listening = /"port":(\d+)[^\n]*"msg":"listening"|"msg":"listening"[^\n]*"port":(\d+)/.exec(buffered);
      if (listening) resolve(Number(listening[1] ?? listening[2]));
      if (buffered.length > 1_000_000) buffered = buffered.slice(-10_000);
    });
    child.once("exit", (code) => reject(new Error(`the route server exited (${code}): ${stderr.slice(-2000)}`)));
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    database,
    close: async () => {
      await killHard(child);
      await database?.close();
    },
  };
}
