// Migrations without Prisma's native schema engine (which the CLI downloads and this project cannot
// count on): the WASM build of the same engine, driven through the driver adapters. It reads and
// writes the standard prisma/migrations folder and _prisma_migrations table, so the stock
// `prisma migrate deploy` works on the same files wherever the native engine is available.
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { newPglite } from "./pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import type { MigrationList, SchemaEngine } from "@prisma/schema-engine-wasm/schema_engine_bg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { env } from "../env";
import { privatePglite } from "./data-dir";
import { openDataDir, type DbTarget } from "./index";
import { MIGRATIONS_DIR, migrationSql } from "./migration-files";
import { grantAppRole, migrationUrl } from "./privileges";

export { migrationNames, migrationSql } from "./migration-files";

const require = createRequire(import.meta.url);
export const SCHEMA_PATH = resolve("prisma/schema.prisma");
const NO_FILTERS = { externalTables: [], externalEnums: [] };

type EngineModule = typeof import("@prisma/schema-engine-wasm/schema_engine_bg");
let engineModule: Promise<EngineModule> | undefined;

function loadEngineModule(): Promise<EngineModule> {
  engineModule ??= (async () => {
    const runtime = (await import("@prisma/schema-engine-wasm/schema_engine_bg")) as EngineModule & {
      __wbg_set_wasm(exports: WebAssembly.Exports): void;
    };
    const wasmPath = join(dirname(require.resolve("@prisma/schema-engine-wasm/schema_engine_bg")), "schema_engine_bg.wasm");
    const instance = new WebAssembly.Instance(new WebAssembly.Module(await readFile(wasmPath)), {
      "./schema_engine_bg.js": runtime as unknown as WebAssembly.ModuleImports,
    });
    runtime.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return runtime;
  })();
  return engineModule;
}

// The factories' types differ between adapters; the engine only needs the shared interface.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AdapterFactory = any;

async function withEngine<T>(factory: AdapterFactory, fn: (engine: SchemaEngine) => Promise<T>): Promise<T> {
  const runtime = await loadEngineModule();
  const engine = await runtime.SchemaEngine.new({ datamodels: undefined }, () => {}, bindMigrationAwareSqlAdapterFactory(factory));
  try {
    return await fn(engine);
  } finally {
    engine.free();
  }
}

/**
 * Two fixes to @prisma/adapter-pg for the schema engine:
 * - it cannot decode PostgreSQL's internal "char" type (OID 18), which the engine's introspection
 *   queries return; reading it as text is exact for the single-byte codes involved;
 * - its executeScript splits a migration on every ";", which breaks function bodies ($$ … $$). The
 *   simple query protocol runs a whole multi-statement script, as the native engine does.
 */
function forSchemaEngine(factory: AdapterFactory): AdapterFactory {
  const patch = (adapter: AdapterFactory) => {
    if (adapter.executeScript && adapter.client?.query) {
      adapter.executeScript = async (script: string) => {
        try {
          await adapter.client.query(script);
        } catch (error) {
          adapter.onError(error);
        }
      };
    }
    const performIO = adapter.performIO.bind(adapter);
    adapter.performIO = async (query: unknown) => {
      const result = await performIO(query);
      for (const field of result.fields ?? []) if (field.dataTypeID === 18) field.dataTypeID = 25;
      return result;
    };
    const startTransaction = adapter.startTransaction?.bind(adapter);
    if (startTransaction) adapter.startTransaction = async (...args: unknown[]) => patch(await startTransaction(...args));
    return adapter;
  };
  const connect = factory.connect.bind(factory);
  factory.connect = async () => patch(await connect());
  if (factory.connectToShadowDb) {
    const shadow = factory.connectToShadowDb.bind(factory);
    factory.connectToShadowDb = async () => patch(await shadow());
  }
  return factory;
}

async function migrationList(): Promise<MigrationList> {
  const dir = MIGRATIONS_DIR;
  const lock = join(dir, "migration_lock.toml");
  return {
    baseDir: dir,
    lockfile: { path: "migration_lock.toml", content: existsSync(lock) ? await readFile(lock, "utf8") : null },
    shadowDbInitScript: "",
    migrationDirectories: (await migrationSql()).map(({ name, sql }) => ({
      path: name,
      migrationFile: { path: "migration.sql", content: { tag: "ok", value: sql } },
    })),
  } as MigrationList;
}

async function openFactory(target: DbTarget): Promise<{ factory: AdapterFactory; close: () => Promise<void> }> {
  if (target.kind === "postgres") {
    // The engine opens connections but never ends them; a pool left open keeps the database busy
    // (a template that is "being accessed by other users" cannot be cloned or dropped).
    const factory = forSchemaEngine(new PrismaPg({ connectionString: target.url, max: 2 }));
    const opened: { dispose(): Promise<void> }[] = [];
    const connect = factory.connect.bind(factory);
    factory.connect = async () => {
      const adapter = await connect();
      opened.push(adapter);
      return adapter;
    };
    return { factory, close: async () => void (await Promise.all(opened.map((a) => a.dispose()))) };
  }
  if (target.pglite) return { factory: new PrismaPGlite(target.pglite), close: async () => {} };
  const release = target.dir ? openDataDir(target.dir, target.dataDir) : () => {};
  const pglite = target.dir ? privatePglite(target.dir) : newPglite();
  return {
    factory: new PrismaPGlite(pglite),
    close: async () => {
      await pglite.close();
      release();
    },
  };
}

/**
 * Applies every pending migration; returns the names applied now (empty when up to date).
 *
 * On PostgreSQL the target is the app's own connection (DATABASE_URL). The migrations run as the
 * owner (MIGRATION_DATABASE_URL on the target's database, or the target itself when none is set),
 * who then grants the app's role exactly what it uses (privileges.ts), on every deploy. When the app
 * connects as the owner nothing can be protected: `warn` is told so in one line.
 */
export async function deployMigrations(target: DbTarget, options: { warn?: (line: string) => void } = {}): Promise<string[]> {
  const owner: DbTarget =
    target.kind === "postgres" ? { kind: "postgres", url: migrationUrl(target.url, env().MIGRATION_DATABASE_URL) } : target;
  const { factory, close } = await openFactory(owner);
  let applied: string[];
  try {
    applied = await withEngine(
      factory,
      async (engine) =>
        (await engine.applyMigrations({ migrationsList: await migrationList(), filters: NO_FILTERS })).appliedMigrationNames,
    );
  } finally {
    await close();
  }
  if (target.kind === "postgres" && owner.kind === "postgres") {
    const report = await grantAppRole({ ownerUrl: owner.url, appUrl: target.url });
    if (report.warning) options.warn?.(report.warning);
  }
  return applied;
}

export interface MigrationStatus {
  applied: string[];
  pending: string[];
  failed: string[];
  edited: string[];
  /** Applied in the database but missing from prisma/migrations (a newer build ran here). */
  unknown: string[];
}

/** Read as the owner, the role deployMigrations runs as. */
export async function migrationStatus(target: DbTarget): Promise<MigrationStatus> {
  const { factory, close } = await openFactory(
    target.kind === "postgres" ? { kind: "postgres", url: migrationUrl(target.url, env().MIGRATION_DATABASE_URL) } : target,
  );
  try {
    return await withEngine(factory, async (engine) => {
      const list = await migrationList();
      const d = await engine.diagnoseMigrationHistory({ migrationsList: list, optInToShadowDatabase: false, filters: NO_FILTERS });
      const local = list.migrationDirectories.map((m) => m.path);
      const history = d.history as { diagnostic: string; unappliedMigrationNames?: string[]; unpersistedMigrationNames?: string[] } | null;
      const pending = history?.unappliedMigrationNames ?? (d.hasMigrationsTable ? [] : local);
      const unknown = history?.unpersistedMigrationNames ?? [];
      return {
        applied: local.filter((n) => !pending.includes(n)),
        pending,
        failed: d.failedMigrationNames,
        edited: d.editedMigrationNames,
        unknown,
      };
    });
  } finally {
    await close();
  }
}

/**
 * The SQL that takes the migration history to the current schema.prisma, replaying the history on an
 * in-memory database; null when they agree. A schema edited without its migration shows here.
 */
export async function schemaDrift(): Promise<string | null> {
  const schema = [{ path: SCHEMA_PATH, content: await readFile(SCHEMA_PATH, "utf8") }];
  const shadow = newPglite();
  try {
    const list = await migrationList();
    return await withEngine(new PrismaPGlite(shadow), async (engine) => {
      if (list.migrationDirectories.length) await engine.applyMigrations({ migrationsList: list, filters: NO_FILTERS });
      const diff = await engine.diff({
        from: { tag: "schemaDatasource", files: schema, configDir: dirname(SCHEMA_PATH) },
        to: { tag: "schemaDatamodel", files: schema },
        script: true,
        exitCode: true,
        filters: NO_FILTERS,
      });
      return diff.exitCode === 0 ? null : (diff.stdout as string);
    });
  } finally {
    await shadow.close();
  }
}

/**
 * Writes prisma/migrations/<timestamp>_<name>/migration.sql with schemaDrift's SQL. Returns the
 * folder, or null when the schema has no changes.
 */
export async function createMigration(name: string): Promise<string | null> {
  const sql = await schemaDrift();
  if (!sql) return null;
  const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
  const dir = join(MIGRATIONS_DIR, `${stamp}_${name.replace(/\W+/g, "_").toLowerCase()}`);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "migration.sql"), sql);
  await writeFile(
    join(MIGRATIONS_DIR, "migration_lock.toml"),
    '# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "postgresql"\n',
  );
  return dir;
}
