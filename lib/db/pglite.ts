// Every embedded database is opened here: the server's, the migrations' shadow, the tests', the
// grading's. The search indexes are trigram indexes (pg_trgm), and a migration that creates them
// fails on a PGlite started without the extension's bundle, so no PGlite is made any other way.
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

/** The extensions every embedded database carries (the migrations `CREATE EXTENSION` them). */
export const PGLITE_EXTENSIONS = { pg_trgm } as const;

/** A PGlite with the extensions; one in memory (no `fs`, no `dataDir`) starts with IN_MEMORY_SETTINGS
 * unless the caller gives start parameters of its own. */
export function newPglite(options: PGliteOptions = {}): PGlite {
  const inMemory = !options.fs && !options.dataDir;
  return new PGlite({
    ...(inMemory ? { startParams: withSettings(IN_MEMORY_SETTINGS) } : {}),
    ...options,
    extensions: { ...PGLITE_EXTENSIONS, ...options.extensions },
  });
}

/** PGlite's start parameters with PostgreSQL settings of the caller's over them (`-c name=value`). */
export function withSettings(settings: Record<string, string>): string[] {
  return [...PGlite.defaultStartParams, ...Object.entries(settings).flatMap(([name, value]) => ["-c", `${name}=${value}`])];
}

/**
 * The settings of a database that lives in memory (each test file's, each grader's): its files are
 * already in the process, so shared buffers beyond a few MB are a second copy of them – and a copy
 * PostgreSQL zeroes as it starts. At PostgreSQL's default of 128 MB that zeroing was most of opening
 * one (about 0.9 s against 0.35–0.45 s at 8 MB; docs/performance.md, "Opening an in-memory database").
 */
export const IN_MEMORY_SETTINGS = { shared_buffers: "8MB" } as const;
