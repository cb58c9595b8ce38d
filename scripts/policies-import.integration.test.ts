// npm run policies:import as a person runs it, on an embedded data directory (or on this test's
// PostgreSQL database with DATABASE_URL): refused without --as, every problem as file:line with
// nothing written, drafts by the named person, and the same folder again a no-op.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, type DbHandle } from "../lib/db";
import { PrivateNodeFS } from "../lib/db/data-dir";
import { migratedPglite } from "../lib/db/migrated-template";
import { newPglite } from "../lib/db/pglite";
import { createTestDb, type TestDb } from "../testing/db";
import { runTs } from "../testing/spawn-ts";

const root = mkdtempSync(join(tmpdir(), "countersign-policies-"));
const dataDir = join(root, "data");
let postgres: TestDb | undefined;

/** The database the command writes, opened here only while the command is not running (PGlite holds its directory). */
async function withDb<T>(fn: (client: DbHandle["client"]) => Promise<T>): Promise<T> {
  if (postgres) return fn(postgres.client);
  const handle = openDb({ kind: "pglite", dir: join(dataDir, "pglite") });
  try {
    return await fn(handle.client);
  } finally {
    await handle.close();
  }
}

beforeAll(async () => {
  if (process.env.DATABASE_URL) postgres = await createTestDb();
  else {
    mkdirSync(dataDir, { recursive: true });
    // A migrated data directory, written from the template the test files' databases load
    // (lib/db/migrated-template.ts) with the modes the app gives its own, not migrated again.
    const template = await migratedPglite();
    const migrated = await template.dumpDataDir("none");
    await template.close();
    const written = newPglite({ fs: new PrivateNodeFS(join(dataDir, "pglite")), loadDataDir: migrated });
    await written.waitReady;
    await written.close();
  }
  await withDb((client) =>
    client.user.create({ data: { email: "writer@example.com", name: "Wanda Writer", role: "SPECIALIST", passwordHash: "x" } }),
  );
}, 180_000);
afterAll(async () => {
  await postgres?.close();
  rmSync(root, { recursive: true, force: true });
});

function run(args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.MIGRATION_DATABASE_URL;
  if (postgres) env.DATABASE_URL = postgres.url;
  else delete env.DATABASE_URL;
  return runTs("scripts/policies-import.ts", args, env);
}

const said = (stderr: string) => stderr.split("\n").filter((line) => line.trim() && !line.startsWith("{"));

function folder(name: string, files: Record<string, string>): string {
  const dir = join(root, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const doc = (key: string, text: string) => `---\nkey: ${key}\ntitle: Policy ${key}\nlocale: en\n---\n${text}\n`;
const documents = () => withDb((client) => client.policyDocument.findMany({ orderBy: { docKey: "asc" }, include: { author: true } }));

describe("npm run policies:import", () => {
  it("refuses to run without the person the drafts are written by, or with someone unknown", async () => {
    const dir = folder("good", { "a.md": doc("cli-a", "Text.") });
    const without = await run([dir]);
    expect(without.code).toBe(2);
    expect(said(without.stderr).join("\n")).toMatch(/--as/);
    const unknown = await run([dir, "--as", "nobody@example.com"]);
    expect(unknown.code).toBe(2);
    expect(said(unknown.stderr)).toEqual(["No active person has the email nobody@example.com: add them first (npm run user:add)."]);
    expect(await documents()).toEqual([]);
  }, 120_000);

  it("prints every problem as file:line, exits 1 and writes nothing", async () => {
    const dir = folder("bad", {
      "ok.md": doc("cli-ok", "Fine."),
      "sub/broken.md": "---\nkey: cli-broken\ntitle: Broken\ncolour: red\n---\nText.\n",
      "sub/untitled.md": "---\nkey: cli-untitled\n---\nText.\n",
    });
    const result = await run([dir, "--as", "writer@example.com"]);
    expect(result.code).toBe(1);
    const lines = said(result.stderr);
    expect(lines[0]).toMatch(/^sub\/broken\.md:4: Unknown front matter "colour"/);
    expect(lines[1]).toBe('sub/untitled.md:1: The front matter names no title ("title: …").');
    expect(lines.at(-1)).toBe("2 problems in 2 file(s): nothing was imported.");
    expect(await documents()).toEqual([]);
  }, 120_000);

  it("imports every file under the folder as drafts by the named person; the same folder again writes nothing", async () => {
    const dir = folder("nested", {
      "en/a.md": doc("cli-a", "First."),
      "es/deep/b.md": doc("cli-b", "Segundo."),
      "README.md": "This folder holds our policies.",
    });
    const first = await run([dir, "--as", "WRITER@example.com"]);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/Read 2 Markdown files/);
    expect(first.stdout).toMatch(/checked 2\/2 files/);
    expect(first.stdout).toMatch(/created {2}en\/a\.md → cli-a@1 \(draft\)/);
    expect(first.stdout).toMatch(/Done: 2 created, 0 updated, 0 unchanged, 0 skipped\./);
    const rows = await documents();
    expect(rows.map((d) => [d.docKey, d.version, d.status, d.author?.name])).toEqual([
      ["cli-a", 1, "draft", "Wanda Writer"],
      ["cli-b", 1, "draft", "Wanda Writer"],
    ]);

    const again = await run([dir, "--as", "writer@example.com"]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/Done: 0 created, 0 updated, 2 unchanged/);
    expect(await documents()).toEqual(rows);
  }, 120_000);
});
