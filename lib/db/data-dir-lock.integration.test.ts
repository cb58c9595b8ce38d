// Only one process may open an embedded data directory: a second one – the CLI while the server
// runs – is refused with one line, and the directory is left as it was. A lock left by a killed
// process is taken over.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { killHard, spawnTs } from "../../testing/spawn-ts";

const root = mkdtempSync(join(tmpdir(), "countersign-lock-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function cli(script: string, args: string[], dir: string) {
  const env = { ...process.env, PGLITE_DATA_DIR: dir, DATABASE_URL: "", DATA_DIR: root };
  return spawnSync(process.execPath, ["--import", "tsx", script, ...args], { env, encoding: "utf8", timeout: 60_000 });
}

describe("the embedded data directory", () => {
  it("refuses the CLI with one line while another process holds it, and opens once that process is gone", async () => {
    const dir = join(root, "pglite");
    const holder = spawnTs("testing/hold-data-dir.ts", [dir]);
    await new Promise<void>((resolve, reject) => {
      holder.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("holding") && resolve());
      holder.once("exit", (code) => reject(new Error(`holder exited with ${code}`)));
    });

    const refused = cli("scripts/agent.ts", ["--ticket", "1"], dir);
    expect(refused.status).toBe(2);
    const lines = refused.stderr
      .trim()
      .split("\n")
      .filter((l) => !l.includes("nodedir"));
    expect(lines).toEqual([
      `The embedded database in ${dir} is in use by process ${holder.pid} (the running server?). Stop it first, or point DATABASE_URL at PostgreSQL to run several processes.`,
    ]);
    expect(cli("scripts/audit-verify.ts", [], dir).status).toBe(2);

    // Killed, it leaves its lock behind; the next process takes it over and finds the data intact.
    await killHard(holder);
    const verified = cli("scripts/audit-verify.ts", [], dir);
    expect(verified.stderr).not.toContain("in use");
    expect(verified.status).toBe(0);
  }, 120_000);
});
