// A consistent copy of the embedded database, taken while the server runs. PGlite has no locking of
// its own and the running process holds its data directory alone (lockDataDir), so a second process
// can neither open it nor copy its files safely. The copy is therefore made by the process that
// holds it: PGlite's dumpDataDir() tars the data directory between two statements (it waits for the
// one running), which is what a crash at that instant would leave – committed transactions in,
// uncommitted ones rolled back by recovery when the copy is opened.
// The holder answers a request (backup-requests.ts); with no holder, the command opens the directory
// itself, under the lock.
import { existsSync, renameSync, rmSync } from "node:fs";
import type { PGlite } from "@electric-sql/pglite";
import { requestCopy } from "./backup-requests";
import { privatePglite, PrivateNodeFS } from "./data-dir";
import { newPglite } from "./pglite";
import { DataDirInUse, openDataDir } from "./index";

/**
 * A consistent copy of the embedded database in `dir` as a gzipped tarball: from the process holding
 * it, or – when none does – from the directory opened here under its lock.
 */
export async function copyEmbeddedDatabase(
  dir: string,
  options: { dataDir?: string; progress?: (line: string) => void; timeoutMs?: number } = {},
): Promise<Buffer> {
  const progress = options.progress ?? (() => {});
  if (!existsSync(/*turbopackIgnore: true*/ `${dir}/PG_VERSION`)) throw new Error(`There is no database in ${dir} to back up.`);
  let release: () => void;
  try {
    release = openDataDir(dir, options.dataDir);
  } catch (error) {
    if (!(error instanceof DataDirInUse)) throw error;
    return requestCopy(dir, error.pid, progress, options.timeoutMs ?? 120_000);
  }
  try {
    progress(`Copying the embedded database in ${dir} (no process holds it)…`);
    const pglite = privatePglite(dir, "16MB");
    try {
      return Buffer.from(await (await pglite.dumpDataDir("gzip")).arrayBuffer());
    } finally {
      await pglite.close();
    }
  } finally {
    release();
  }
}

/**
 * Writes a copy made by copyEmbeddedDatabase into the new directory `dir` (which must not exist) and
 * opens it: the caller reads what it needs, then closes it.
 */
export async function loadEmbeddedDatabase(tarball: Buffer, dir: string): Promise<PGlite> {
  if (existsSync(/*turbopackIgnore: true*/ dir)) throw new Error(`${dir} already exists`);
  const pglite = newPglite({ fs: new PrivateNodeFS(dir), loadDataDir: new Blob([new Uint8Array(tarball)]) });
  await pglite.waitReady;
  return pglite;
}

/** Puts the directory `from` in the place of `to` (removing what was there). */
export function replaceDirectory(from: string, to: string): void {
  rmSync(/*turbopackIgnore: true*/ to, { recursive: true, force: true });
  renameSync(/*turbopackIgnore: true*/ from, to);
}
