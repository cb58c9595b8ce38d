// Files kept in node_modules/.cache between processes: the migrated and seeded database templates
// (migrated-template.ts) and the grading worker's bundle (lib/eval/worker-bundle.ts). Each is written
// to a unique name and renamed into place: processes that race to make one each write a whole file,
// and a reader never sees half of one.
import { randomBytes } from "node:crypto";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

/** A folder of its own under node_modules/.cache. */
export function cacheDir(name: string): string {
  return join(process.cwd(), "node_modules", ".cache", name);
}

/** Writes `file` whole, through a `.partial` name of this process's renamed into place. */
export async function writeCacheFile(file: string, data: string | Uint8Array): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.partial`;
  await writeFile(partial, data);
  await rename(partial, file);
}
