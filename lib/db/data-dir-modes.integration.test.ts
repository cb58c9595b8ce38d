// The embedded database's files are its owner's alone: after a process has created, migrated and
// seeded it the way `npm start` does, the data directory is 0700 and nothing under it is open to
// group or other – the write-ahead log included. A data directory left open by an older version is
// fixed at the next open, with one line saying how many entries were.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DATA_DIR_SHARED_BUFFERS, privatePglite } from "./data-dir";

const root = mkdtempSync(join(tmpdir(), "countersign-modes-"));
const dataDir = join(root, "data");
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A command of scripts/ in its own process, on the embedded database in `dataDir`. */
function run(args: string[]) {
  const env = { ...process.env, DATA_DIR: dataDir, PGLITE_DATA_DIR: "", DATABASE_URL: "", DEMO_SEED: "true", LOG_LEVEL: "info" };
  const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/db.ts", ...args], { env, encoding: "utf8", timeout: 150_000 });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout + result.stderr;
}

/** Every entry under dir (itself included) whose mode gives group or other any access. */
function openEntries(dir: string): string[] {
  const found: string[] = [];
  const visit = (path: string) => {
    const stat = lstatSync(path);
    if (stat.mode & 0o077) found.push(`${path.slice(root.length)} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
  };
  visit(dir);
  return found;
}

describe("the embedded data directory's modes", () => {
  it("is 0700 with every file 0600 after a process creates, migrates and seeds the database", () => {
    // What npm start does to the database: apply the migrations, seed the demo rows, close.
    run(["reset", "--yes"]);

    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    const wal = join(dataDir, "pglite", "pg_wal");
    const segments = readdirSync(wal).filter((name) => /^[0-9A-F]{24}$/.test(name));
    expect(segments.length).toBeGreaterThan(0);
    for (const segment of segments) expect(statSync(join(wal, segment)).mode & 0o777).toBe(0o600);
    expect(openEntries(dataDir)).toEqual([]);
  }, 180_000);

  it("fixes what an older version left open to group or other at the next open, and says how many", () => {
    if (!existsSync(join(dataDir, "pglite", "PG_VERSION"))) run(["reset", "--yes"]);
    const pglite = join(dataDir, "pglite");
    const old = [
      [dataDir, 0o777],
      [pglite, 0o755],
      [join(pglite, "base"), 0o777],
      [join(pglite, "PG_VERSION"), 0o666],
      [join(pglite, "postgresql.conf"), 0o644],
      [
        join(
          pglite,
          "pg_wal",
          readdirSync(join(pglite, "pg_wal")).find((name) => /^[0-9A-F]{24}$/.test(name))!,
        ),
        0o666,
      ],
    ] as const;
    for (const [path, mode] of old) chmodSync(path, mode);
    const notes = join(dataDir, "notes");
    mkdirSync(notes);
    chmodSync(notes, 0o777);
    writeFileSync(join(notes, "left-over"), "x");
    chmodSync(join(notes, "left-over"), 0o666);
    expect(openEntries(dataDir)).toHaveLength(old.length + 2);

    const output = run(["deploy"]);

    expect(output).toContain(`Made ${old.length + 2} file(s) and folder(s) in ${dataDir} private to their owner`);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(pglite, "PG_VERSION")).mode & 0o777).toBe(0o600);
    expect(statSync(notes).mode & 0o777).toBe(0o700);
    expect(openEntries(dataDir)).toEqual([]);
  }, 180_000);

  it("is opened with DATA_DIR_SHARED_BUFFERS of shared buffers unless the opener asks for other", async () => {
    if (!existsSync(join(dataDir, "pglite", "PG_VERSION"))) run(["reset", "--yes"]);
    for (const [asked, expected] of [
      [undefined, DATA_DIR_SHARED_BUFFERS],
      ["16MB", "16MB"],
    ] as const) {
      const pglite = privatePglite(join(dataDir, "pglite"), asked);
      try {
        expect((await pglite.query<{ shared_buffers: string }>("SHOW shared_buffers")).rows).toEqual([{ shared_buffers: expected }]);
      } finally {
        await pglite.close();
      }
    }
  }, 180_000);
});
