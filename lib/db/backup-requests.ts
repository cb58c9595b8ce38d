// Backup requests for an embedded database, answered by the process holding its data directory (see
// embedded-backup.ts for why). Any process that opens a data directory (openDb) answers them:
// `npm run db:backup` writes a request file beside the directory naming a random id, the holder sees
// it within half a second, writes the tarball beside the directory under that id and renames it into
// place when whole (or writes why it could not).
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { readFile, rename, writeFile } from "node:fs/promises";
import type { PGlite } from "@electric-sql/pglite";

const POLL_MS = 500;
const ID = /^[0-9a-f]{32}$/;

const requestFile = (dir: string) => /*turbopackIgnore: true*/ `${dir}.backup-request`;
const resultFile = (dir: string, id: string) => /*turbopackIgnore: true*/ `${dir}.backup-${id}.tar.gz`;
const errorFile = (dir: string, id: string) => /*turbopackIgnore: true*/ `${dir}.backup-${id}.error`;

/** Answers backup requests for the data directory `dir` this process holds; returns the stop function. */
export function answerBackupRequests(pglite: PGlite, dir: string): () => void {
  let busy = false;
  const timer = setInterval(() => {
    if (busy || !existsSync(/*turbopackIgnore: true*/ requestFile(dir))) return;
    busy = true;
    void answerOne(pglite, dir).finally(() => (busy = false));
  }, POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

async function answerOne(pglite: PGlite, dir: string): Promise<void> {
  let id: string;
  try {
    id = readFileSync(/*turbopackIgnore: true*/ requestFile(dir), "utf8").trim();
    rmSync(/*turbopackIgnore: true*/ requestFile(dir), { force: true });
  } catch {
    return;
  }
  if (!ID.test(id)) return;
  try {
    const partial = `${resultFile(dir, id)}.part`;
    await writeFile(/*turbopackIgnore: true*/ partial, Buffer.from(await (await pglite.dumpDataDir("gzip")).arrayBuffer()), {
      mode: 0o600,
    });
    await rename(/*turbopackIgnore: true*/ partial, resultFile(dir, id));
  } catch (error) {
    writeFileSync(/*turbopackIgnore: true*/ errorFile(dir, id), error instanceof Error ? error.message : String(error), { mode: 0o600 });
  }
}

/** Asks the process holding `dir` for a copy; returns its tarball (gzip) once written. */
export async function requestCopy(dir: string, holder: number, progress: (line: string) => void, timeoutMs: number): Promise<Buffer> {
  const id = randomBytes(16).toString("hex");
  try {
    writeFileSync(/*turbopackIgnore: true*/ requestFile(dir), id, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST")
      throw new Error(`Another backup of ${dir} is waiting for its copy (${requestFile(dir)}); try again once it is done.`);
    throw error;
  }
  progress(`The database is in use by process ${holder} (the running server?): asking it for a consistent copy…`);
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      if (existsSync(/*turbopackIgnore: true*/ resultFile(dir, id))) {
        const data = await readFile(/*turbopackIgnore: true*/ resultFile(dir, id));
        rmSync(/*turbopackIgnore: true*/ resultFile(dir, id), { force: true });
        return data;
      }
      if (existsSync(/*turbopackIgnore: true*/ errorFile(dir, id))) {
        const why = readFileSync(/*turbopackIgnore: true*/ errorFile(dir, id), "utf8");
        rmSync(/*turbopackIgnore: true*/ errorFile(dir, id), { force: true });
        throw new Error(`Process ${holder} could not copy the database: ${why}`);
      }
      if (Date.now() > deadline)
        throw new Error(
          `Process ${holder} holds ${dir} but did not answer the backup request within ${timeoutMs / 1000} s (a command that does not answer, or a server too old to): stop it, or try again when it is done.`,
        );
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    rmSync(/*turbopackIgnore: true*/ requestFile(dir), { force: true });
  }
}
