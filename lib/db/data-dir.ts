// The embedded database's directory is its owner's alone: the data directory and every folder in it
// 0700, every file 0600. Its write-ahead log holds password hashes and every row.
//
// Two things set modes there. Node (the lock, the generated secrets, folders) honours the process's
// umask, so the umask is narrowed before anything is created. PGlite (Emscripten) does not: it
// creates a file and then sets the mode postgres asked for itself (0666 for every file of a new
// cluster, 0644 for some it writes later), so the modes are narrowed on their way through its file
// system too. Entries left open by an older version are fixed once per process, at the first open.
import { chmodSync, lstatSync, mkdirSync, readdirSync } from "node:fs";
import { join, relative, resolve, isAbsolute } from "node:path";
import { isMainThread } from "node:worker_threads";
import type { PGlite } from "@electric-sql/pglite";
import { newPglite, withSettings } from "./pglite";
import { NodeFS } from "@electric-sql/pglite/nodefs";
import { logger } from "../observability/logger";

/** Group and other get nothing. */
const GROUP_OTHER = 0o077;

/** From now on this process creates files and folders without group or other access. */
export function privateUmask(): void {
  // Worker threads may not change the umask; they share their process's, set by the main thread.
  if (!isMainThread) return;
  const previous = process.umask(GROUP_OTHER);
  if ((previous | GROUP_OTHER) !== GROUP_OTHER) process.umask(previous | GROUP_OTHER);
}

/** Folders 0700 and files 0600 wherever group or other have any access; returns how many changed. */
export function fixModes(root: string): number {
  let fixed = 0;
  const visit = (path: string) => {
    let stat;
    try {
      stat = lstatSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    if (stat.isSymbolicLink()) return;
    const directory = stat.isDirectory();
    if (stat.mode & GROUP_OTHER) {
      chmodSync(path, directory ? 0o700 : 0o600);
      fixed++;
    }
    if (directory) for (const entry of readdirSync(path)) visit(join(path, entry));
  };
  visit(root);
  return fixed;
}

const g = globalThis as unknown as { __countersignPrivateDirs?: Set<string> };

/**
 * Prepares the embedded database's directory (and the data directory around it, when given) before
 * it is opened: a private umask for the process, the folders created 0700, and – once per process –
 * anything an older version left open to group or other fixed, with one line saying how many.
 */
export function protectDataDir(dir: string, dataDir?: string): void {
  privateUmask();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const roots = [resolve(dir)];
  if (dataDir) {
    const outer = resolve(dataDir);
    const within = relative(outer, roots[0]!);
    if (!within || (!within.startsWith("..") && !isAbsolute(within))) roots.splice(0, 1);
    roots.unshift(outer);
  }
  const walked = (g.__countersignPrivateDirs ??= new Set());
  let fixed = 0;
  for (const root of roots) {
    if (walked.has(root)) continue;
    walked.add(root);
    fixed += fixModes(root);
  }
  if (fixed)
    logger.warn(
      { fixed, dir: roots.join(", ") },
      `Made ${fixed} file(s) and folder(s) in ${roots.join(" and ")} private to their owner (they were open to group or other).`,
    );
}

type TEmscriptenFs = {
  chmod(path: unknown, mode: number, dontFollow?: boolean): void;
  fchmod(fd: number, mode: number): void;
};

/** PGlite's Node file system, every mode it sets narrowed to the owner's bits. */
export class PrivateNodeFS extends NodeFS {
  override async init(pg: PGlite, opts: Parameters<NodeFS["init"]>[1]) {
    const { emscriptenOpts } = await super.init(pg, opts);
    const narrow = (mod: { FS: unknown }) => {
      const fs = mod.FS as TEmscriptenFs;
      const chmod = fs.chmod.bind(fs);
      const fchmod = fs.fchmod.bind(fs);
      fs.chmod = (path, mode, dontFollow) => chmod(path, mode & ~GROUP_OTHER, dontFollow);
      fs.fchmod = (fd, mode) => fchmod(fd, mode & ~GROUP_OTHER);
    };
    return { emscriptenOpts: { ...emscriptenOpts, preRun: [...(emscriptenOpts.preRun ?? []), narrow] } };
  }
}

/**
 * The shared buffers of an embedded database on a directory, unless its opener asks otherwise. PGlite
 * holds them in the process's memory, zeroed as it starts, so all of them are resident from the
 * start whatever is read; PostgreSQL's default of 128 MB was a quarter of an idle `npm start`. A page
 * not in them is read from the directory's file, which the operating system caches, as PostgreSQL
 * itself relies on (docs/performance.md, "Opening an in-memory database").
 */
export const DATA_DIR_SHARED_BUFFERS = "32MB";

/** An embedded database on a directory whose files stay private (see protectDataDir). */
export function privatePglite(dir: string, sharedBuffers: string = DATA_DIR_SHARED_BUFFERS): PGlite {
  return newPglite({ fs: new PrivateNodeFS(dir), startParams: withSettings({ shared_buffers: sharedBuffers }) });
}
