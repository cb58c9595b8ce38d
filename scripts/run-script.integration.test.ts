// A command's refusals before it does any work are one line a person can act on, with exit code 2:
// not a stack trace (run-script.ts).
import { runTs, type TScriptRun } from "../testing/spawn-ts";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const dataDir = mkdtempSync(join(tmpdir(), "countersign-cmd-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Runs a command on a fresh, empty embedded database (never the one a CI run points at). */
function run(script: string, args: string[], dir = dataDir): Promise<TScriptRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dir };
  delete env.DATABASE_URL;
  delete env.MIGRATION_DATABASE_URL;
  return runTs(script, args, env);
}

/** What a person reads: stderr without the JSON log lines. */
const said = (stderr: string) => stderr.split("\n").filter((line) => line.trim() && !line.startsWith("{"));

describe("a command on a database that was never migrated", () => {
  it("says so and how to fix it, in one line", async () => {
    const result = await run("scripts/agent.ts", ["--ticket", "1"]);
    expect(result.code).toBe(2);
    expect(said(result.stderr)).toEqual([
      "The database is not migrated (it has no Ticket table): run npm run db:deploy, or npm start, which migrates and seeds it.",
    ]);
  }, 60_000);
});

describe("npm run eval with nowhere to store its receipt", () => {
  it("says so before grading anything, and creates no database", async () => {
    const empty = join(dataDir, "never-started");
    const result = await run("scripts/eval.ts", [], empty);
    expect(result.code).toBe(2);
    expect(said(result.stderr)).toEqual([
      `There is no database in ${join(empty, "pglite")} yet: run npm run db:deploy, or npm start, which migrates and seeds it. Or pass --no-store.`,
    ]);
    expect(result.stdout).not.toMatch(/Grading/);
    expect(existsSync(join(empty, "pglite"))).toBe(false);
  }, 60_000);
});

describe("a command given an option it does not know", () => {
  it("names the option in one line", async () => {
    const result = await run("scripts/agent.ts", ["--tikcet", "1"]);
    expect(result.code).toBe(2);
    expect(said(result.stderr)).toHaveLength(1);
    expect(said(result.stderr)[0]).toMatch(/^Unknown option '--tikcet'/);
  }, 60_000);
});
