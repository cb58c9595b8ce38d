// The grading worker's code as one plain JavaScript file. A worker thread that imports the TypeScript
// modules one by one through tsx's loader spends about as long in the loader as in the modules
// (1.1–1.2 s against 0.55–0.63 s for the same graph bundled, on a 2-core machine): every import goes
// to the loader's own thread and back. Bundled by esbuild (about 0.1 s; our code only, packages stay
// imports), the worker starts without the loader; esbuild's service process is stopped once it has
// bundled. The file is named by its content's hash, so processes grading at once share one file and
// a change to any module makes a new one.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, rm, stat, utimes } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { cacheDir, writeCacheFile } from "../db/cache-files";

const ENTRY = fileURLToPath(new URL("./grade-worker.ts", import.meta.url));
/** Inside node_modules, so that the file's imports of packages resolve as the modules' own do. */
const BUNDLE_DIR = cacheDir("countersign-grading");
const PREFIX = "grade-worker-";
/** A bundle unused for this long is removed when another is written: a worker has long loaded it. */
const STALE_MS = 24 * 60 * 60 * 1000;

/** The bundled worker's code for the modules as they are now. */
export async function bundleWorker(): Promise<string> {
  const { build, stop } = await import("esbuild");
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    write: false,
    logLevel: "silent",
  }).finally(stop);
  return result.outputFiles[0]!.text;
}

/** Removes the bundles in `dir` other than `keep` that were last used more than STALE_MS ago. */
export async function removeStaleBundles(dir: string, keep: string, now = Date.now()): Promise<void> {
  for (const name of await readdir(dir)) {
    const file = join(dir, name);
    if (!name.startsWith(PREFIX) || !name.endsWith(".mjs") || file === keep) continue;
    const { mtimeMs } = await stat(file).catch(() => ({ mtimeMs: now }));
    if (now - mtimeMs > STALE_MS) await rm(file, { force: true });
  }
}

/** Writes the bundle under its hash unless it is there already (then marks it used); its path. */
async function writeBundle(code: string): Promise<string> {
  const file = join(BUNDLE_DIR, `${PREFIX}${createHash("sha256").update(code).digest("hex").slice(0, 24)}.mjs`);
  if (existsSync(file)) {
    const now = new Date();
    await utimes(file, now, now).catch(() => {});
    return file;
  }
  await writeCacheFile(file, code);
  await removeStaleBundles(BUNDLE_DIR, file);
  return file;
}

let bundled: Promise<string> | undefined;

/** The path of the grading worker's bundle, made once per process (grade-worker.ts and what it imports). */
export function gradingWorkerFile(): Promise<string> {
  bundled ??= bundleWorker().then(writeBundle);
  bundled.catch(() => (bundled = undefined));
  return bundled;
}
