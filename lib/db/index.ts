// The Prisma client factory: embedded PGlite in the data directory by default, PostgreSQL when
// DATABASE_URL is a postgres URL. Domain code calls db(); tests point it at their own database.
import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { Prisma, PrismaClient } from "../../generated/prisma/client";
import { env } from "../env";
import { canonicalJson } from "../audit/canonical";

export { Prisma, PrismaClient };
export type Db = PrismaClient;
/** A client or an interactive transaction: what domain functions write through. */
export type DbTx = Prisma.TransactionClient;

export type DbTarget = { kind: "postgres"; url: string; max?: number } | { kind: "pglite"; dir?: string; pglite?: PGlite };

export interface DbHandle {
  client: PrismaClient;
  kind: "postgres" | "pglite";
  close(): Promise<void>;
}

export function openDb(target: DbTarget): DbHandle {
  if (target.kind === "postgres") {
    const client = new PrismaClient({ adapter: new PrismaPg({ connectionString: target.url, max: target.max ?? 10 }) });
    return { client, kind: "postgres", close: () => client.$disconnect() };
  }
  if (target.dir) mkdirSync(target.dir, { recursive: true });
  const pglite = target.pglite ?? new PGlite(target.dir);
  const client = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  return {
    client,
    kind: "pglite",
    // PrismaPGlite does not close the PGlite instance; a process that forgets hangs at exit.
    close: async () => {
      await client.$disconnect();
      if (!target.pglite) await pglite.close();
    },
  };
}

export function configuredTarget(): DbTarget {
  const e = env();
  return e.DATABASE_URL ? { kind: "postgres", url: e.DATABASE_URL } : { kind: "pglite", dir: e.pgliteDir };
}

const g = globalThis as unknown as { __countersignDb?: DbHandle };

/** The process-wide client, opened on first use. */
export function db(): PrismaClient {
  g.__countersignDb ??= openDb(configuredTarget());
  return g.__countersignDb.client;
}

export function dbKind(): "postgres" | "pglite" {
  db();
  return g.__countersignDb!.kind;
}

/** Tests and scripts: use this handle as the process-wide client. */
export function useDb(handle: DbHandle): void {
  g.__countersignDb = handle;
}

export async function closeDb(): Promise<void> {
  const handle = g.__countersignDb;
  g.__countersignDb = undefined;
  await handle?.close();
}

/** Prisma's unique-constraint violation. Branch on the code only: its meta differs by adapter. */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}

/** A value as JSON for a Json column: canonical (sorted keys), Dates as ISO strings. */
export function toJson(value: unknown): Prisma.InputJsonValue {
  return JSON.parse(canonicalJson(value ?? null)) as Prisma.InputJsonValue;
}

/** For nullable Json columns: SQL NULL for null/undefined. */
export function toJsonOrNull(value: unknown): Prisma.InputJsonValue | typeof Prisma.DbNull {
  return value === undefined || value === null ? Prisma.DbNull : toJson(value);
}
