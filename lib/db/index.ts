// The Prisma client factory: embedded PGlite in the data directory by default, PostgreSQL when
// DATABASE_URL is a postgres URL. Domain code calls db(); tests point it at their own database.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { newPglite } from "./pglite";
import { installPreparedStatements } from "./pglite-prepared";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { Prisma, PrismaClient } from "../../generated/prisma/client";
import { env } from "../env";
import { canonicalJson } from "../contracts/canonical";
import { isDriverUniqueViolation, pgDriver, pgliteDriver, type TDriver, type TSqlTx, type TTextRow } from "./driver";
import { privatePglite, protectDataDir } from "./data-dir";
import { answerBackupRequests } from "./backup-requests";
import { countPglite, countPgPool, type RoundTripCounter } from "./round-trips";
import { errorFields, logger } from "../observability/logger";

export { Prisma, PrismaClient };
export type Db = PrismaClient;
/** A client or an interactive transaction: what domain functions write through. */
export type DbTx = Prisma.TransactionClient;

export type DbTarget =
  | { kind: "postgres"; url: string; max?: number; /** A pool of the caller's (the bench records through its own). */ pool?: pg.Pool }
  | {
      kind: "pglite";
      dir?: string;
      pglite?: PGlite;
      /** The data directory around `dir` (DATA_DIR): kept private with it (data-dir.ts). */
      dataDir?: string;
      /**
       * PostgreSQL's shared_buffers for this opening (default DATA_DIR_SHARED_BUFFERS, data-dir.ts).
       * PGlite holds them in the process's memory from the start, whatever is read: a command that
       * opens the app's database for a few statements can ask for less.
       */
      sharedBuffers?: string;
    };

export interface DbHandle {
  client: PrismaClient;
  kind: "postgres" | "pglite";
  /** The embedded database itself (the job worker shares it); absent on PostgreSQL. */
  pglite?: PGlite;
  /** Every statement sent through this handle's driver (see round-trips.ts). */
  roundTrips: RoundTripCounter;
  close(): Promise<void>;
}

/** The data directory is held by another live process: opening it too would corrupt it. */
export class DataDirInUse extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${dir} is in use by process ${pid} (the running server?). Stop it first, or point DATABASE_URL at PostgreSQL to run several processes.`,
    );
    this.name = "DataDirInUse";
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * PGlite has no locking of its own: two processes on one directory corrupt it beyond repair. A lock
 * file beside the directory names the process that holds it; a lock whose process is gone is taken
 * over. Returns the release function.
 */
export function lockDataDir(dir: string): () => void {
  const file = join(dirname(resolve(dir)), `${resolve(dir).split("/").pop()}.lock`);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: "wx", mode: 0o600 });
      const release = () => {
        try {
          if (readFileSync(file, "utf8").trim() === String(process.pid)) rmSync(file);
        } catch {
          // already gone
        }
      };
      process.once("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number.parseInt(readFileSync(file, "utf8"), 10);
      if (holder === process.pid) return () => {};
      if (Number.isSafeInteger(holder) && alive(holder)) throw new DataDirInUse(dir, holder);
      rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not lock ${dir}`);
}

/**
 * Every open of an embedded database on a directory passes through here (openDb, the migrations):
 * the directory made private to its owner (data-dir.ts), then locked. Returns the release function.
 */
export function openDataDir(dir: string, dataDir?: string): () => void {
  protectDataDir(dir, dataDir);
  return lockDataDir(dir);
}

export function openDb(target: DbTarget): DbHandle {
  if (target.kind === "postgres") {
    const pool = target.pool ?? new pg.Pool({ connectionString: target.url, max: target.max ?? 10 });
    // An idle connection the server ends (a restart, an administrator, a dropped database, a proxy's
    // timeout) is reported on the pool, which discards it; unheard, the event would end the process.
    pool.on("error", (error) =>
      logger.warn({ ...errorFields(error) }, "database: an idle connection was closed by the server; the pool opens a new one"),
    );
    const roundTrips = countPgPool(pool);
    const client = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
    drivers.set(client, pgDriver(pool));
    return { client, kind: "postgres", roundTrips, close: () => client.$disconnect() };
  }
  const release = target.dir && !target.pglite ? openDataDir(target.dir, target.dataDir) : () => {};
  const pglite = target.pglite ?? (target.dir ? privatePglite(target.dir, target.sharedBuffers) : newPglite());
  // The holder of a data directory is the only process that can copy it consistently (db:backup).
  const stopAnswering = target.dir && !target.pglite ? answerBackupRequests(pglite, target.dir) : () => {};
  installPreparedStatements(pglite);
  const roundTrips = countPglite(pglite);
  const client = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  drivers.set(client, pgliteDriver(pglite));
  return {
    client,
    kind: "pglite",
    pglite,
    roundTrips,
    // PrismaPGlite does not close the PGlite instance; a process that forgets hangs at exit.
    close: async () => {
      stopAnswering();
      await client.$disconnect();
      if (!target.pglite) await pglite.close();
      release();
    },
  };
}

// On globalThis, like the process-wide handle: a bundler may load this module more than once (the
// server's instrumentation and its pages), and a client opened by one copy is read through another.
const drivers: WeakMap<PrismaClient, TDriver> = ((
  globalThis as unknown as { __countersignDrivers?: WeakMap<PrismaClient, TDriver> }
).__countersignDrivers ??= new WeakMap());

/** The driver beneath a client opened by openDb(): statements without Prisma (driver.ts). */
export function driverOf(client: PrismaClient): TDriver {
  const driver = drivers.get(client);
  if (!driver) throw new Error("this client was not opened by openDb()");
  return driver;
}

/**
 * Rows straight from the driver, every column as text, for reads of millions of rows where Prisma's
 * per-row cost dominates (audit verification). Counted as a round trip like any other statement.
 */
export function driverRows(client: PrismaClient, sql: string, params: readonly unknown[] = []): Promise<TTextRow[]> {
  return driverOf(client).rows(sql, params);
}

/**
 * A statement built with Prisma.sql, run straight on the driver (a driver transaction's connection,
 * driverOf(client).transaction): without Prisma's own work per statement, every column back as its
 * text. A Date travels as its ISO string (UTC), which a timestamp column without time zone reads as
 * the UTC wall-clock time it names – never as the driver's rendering in the process's time zone.
 */
export function sqlRows<R = TTextRow>(tx: TSqlTx, sql: Prisma.Sql): Promise<R[]> {
  return tx.rows<R>(
    sql.text,
    sql.values.map((value) => (value instanceof Date ? value.toISOString() : value)),
  );
}

export function configuredTarget(): DbTarget {
  const e = env();
  return e.DATABASE_URL ? { kind: "postgres", url: e.DATABASE_URL } : { kind: "pglite", dir: e.pgliteDir, dataDir: e.DATA_DIR };
}

const g = globalThis as unknown as { __countersignDb?: DbHandle };

/** The process-wide client, opened on first use. */
export function db(): PrismaClient {
  g.__countersignDb ??= openDb(configuredTarget());
  return g.__countersignDb.client;
}

/** The process-wide handle, opened on first use. */
export function dbHandle(): DbHandle {
  db();
  return g.__countersignDb!;
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

/**
 * A unique-constraint violation, through Prisma or straight from the driver. Prisma reports one as
 * P2002 from its own queries and as P2010 (a raw query failed) from `$queryRaw`, with the driver's
 * cause attached. Branch on the codes only: the rest of Prisma's meta differs by adapter.
 */
export function isUniqueViolation(error: unknown): boolean {
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    if (error.code === "P2002") return true;
    const cause = (error.meta?.driverAdapterError as { cause?: { kind?: unknown; originalCode?: unknown } } | undefined)?.cause;
    return error.code === "P2010" && (cause?.kind === "UniqueConstraintViolation" || cause?.originalCode === "23505");
  }
  return isDriverUniqueViolation(error);
}

/**
 * One line a person can act on for the database errors a command meets before any of its own: the
 * data directory held by another process, or a database with no tables yet (Prisma's P2021: never
 * migrated). Undefined for anything else.
 */
export function describeDbError(error: unknown): string | undefined {
  if (error instanceof DataDirInUse) return error.message;
  if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2021") {
    const table = (error.meta?.modelName as string | undefined) ?? (error.meta?.table as string | undefined);
    return `The database is not migrated${table ? ` (it has no ${table} table)` : ""}: run npm run db:deploy, or npm start, which migrates and seeds it.`;
  }
  return undefined;
}

/**
 * For an embedded database on disk whose data directory holds no cluster yet: one line saying how to make it.
 * Opening it would create an empty one (initdb: seconds and hundreds of MB) only to find no tables, so
 * a command that will need the app's database later asks this first. Undefined otherwise.
 */
export function missingEmbeddedDatabase(target: DbTarget): string | undefined {
  if (target.kind !== "pglite" || !target.dir || existsSync(join(target.dir, "PG_VERSION"))) return undefined;
  return `There is no database in ${target.dir} yet: run npm run db:deploy, or npm start, which migrates and seeds it.`;
}

/** A value as JSON for a Json column: canonical (sorted keys), Dates as ISO strings. */
export function toJson(value: unknown): Prisma.InputJsonValue {
  return JSON.parse(canonicalJson(value ?? null)) as Prisma.InputJsonValue;
}

/** For nullable Json columns: SQL NULL for null/undefined. */
export function toJsonOrNull(value: unknown): Prisma.InputJsonValue | typeof Prisma.DbNull {
  return value === undefined || value === null ? Prisma.DbNull : toJson(value);
}
