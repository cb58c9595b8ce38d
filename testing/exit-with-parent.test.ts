import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { once } from "node:events";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { EXIT_WITH_PARENT } from "./e2e-data-dir";

const PRELOAD = resolve(EXIT_WITH_PARENT);

/** Running, not a zombie its new parent has yet to reap (Linux's /proc). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

async function waitWhile(check: () => boolean, ms: number): Promise<void> {
  for (const end = Date.now() + ms; check() && Date.now() < end;) await new Promise((r) => setTimeout(r, 100));
}

/** A shell that starts a long-lived node process (with `preload`, if given) and waits for it; the node process's pid. */
async function serverUnderShell(preload?: string) {
  const require = preload ? `--require "${preload}"` : "";
  const shell = spawn("sh", ["-c", `"${process.execPath}" ${require} -e "console.log(process.pid); setInterval(() => {}, 1000)" & wait`], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const [line] = (await once(createInterface({ input: shell.stdout! }), "line")) as [string];
  return { shell, pid: Number(line) };
}

describe("a server started with testing/exit-with-parent.cjs", () => {
  it("stops itself when the process that started it is killed outright; without it, it keeps running", async () => {
    const watched = await serverUnderShell(PRELOAD);
    const unwatched = await serverUnderShell();
    try {
      watched.shell.kill("SIGKILL");
      unwatched.shell.kill("SIGKILL");
      await waitWhile(() => running(watched.pid), 5_000);
      expect(running(watched.pid)).toBe(false);
      // The same server without the preload, its parent killed at the same moment: still running.
      expect(running(unwatched.pid)).toBe(true);
    } finally {
      for (const pid of [watched.pid, unwatched.pid]) if (running(pid)) process.kill(pid, "SIGKILL");
    }
  });
});
